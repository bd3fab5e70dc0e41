"""The three PynamoDB hooks TailSpend needs that PynamoDB 6.1 has no public API for.

1. **A model's table connection** (``Model._get_connection()``): PynamoDB's low-level
   ``TableConnection`` serializes keys from a table description, which it otherwise fetches with
   a DescribeTable call per table and cold start; the model's own connection is built from the
   model's key schema and indexes instead. ``RawAccess`` (models/base.py) needs it for rows a
   model instance can't hold and for key-only reads of KEYS_ONLY indexes.
2. **Re-pointing a model** (``Model._connection = None``): PynamoDB caches a model's connection
   and rebuilds it only when ``Meta.table_name`` changes (see the comment in
   ``pynamodb.models.Model._get_connection``); after ``models.configure`` changes the host or
   region, or a SnapStart restore, it must be built again.
   **One connection per table, not per row kind**: PynamoDB caches the connection on the class
   that asked first, so each row kind (a discriminator subclass) used before its table's base
   model built its own ``Connection``, botocore session and client (~70 ms of CPU each: the
   session parses the DynamoDB service model again). The table's base model holds one,
   built at once (cheap: the botocore client still waits for the first call), and no row kind
   keeps its own, so every kind of a table inherits the base's.

3. **One botocore loader per process** (``pynamodb.connection.base.get_session``): PynamoDB
   builds a botocore session per connection and thread (sessions are not thread-safe), and a
   new session reads botocore's data files again: the endpoints file and the DynamoDB service
   model, ~67 ms of a connection's ~74 ms first call. Its sessions now share one loader
   (botocore's ``data_loader`` component), which keeps what it has read, so a table's first
   call costs ~7 ms: after every SnapStart restore and ``models.reconnect()``, in each new
   thread of local mode, and for each table of a cold start.

Nothing else reaches into PynamoDB. tests/platform/test_pynamodb_adapter.py fails loudly when a
PynamoDB upgrade changes either hook's shape.
"""
from __future__ import annotations

import threading
from typing import Type

import botocore.session
from botocore.loaders import create_loader
from pynamodb.connection import TableConnection, base as pynamodb_connection
from pynamodb.models import Model


def table_connection(model: Type[Model]) -> TableConnection:
    """The model's cached connection to its table, keys serialized from the model's schema."""
    return model._get_connection()


def share_connection(model: Type[Model]) -> None:
    """Give a table's base model a fresh connection from its current ``Meta`` (host, region,
    table name) that every row kind of the table inherits: a subclass keeps no connection of
    its own, so PynamoDB's ``cls._connection`` finds the base's."""
    model._connection = None
    _forget_subclass_connections(model)
    model._get_connection()  # no network and no botocore client yet: those wait for a call


def drop_connection(model: Type[Model]) -> None:
    """Forget the model's cached connection (and its subclasses'): the next call builds one
    from its current ``Meta`` (host, region, table name)."""
    model._connection = None
    _forget_subclass_connections(model)


def _forget_subclass_connections(model: Type[Model]) -> None:
    for sub in model.__subclasses__():
        if "_connection" in vars(sub):
            delattr(sub, "_connection")
        _forget_subclass_connections(sub)


def key_names(model: Type[Model]) -> tuple:
    """(hash key, range key) attribute names, from PynamoDB's public attribute API."""
    hash_name = range_name = None
    for attribute in model.get_attributes().values():
        if attribute.is_hash_key:
            hash_name = attribute.attr_name
        elif attribute.is_range_key:
            range_name = attribute.attr_name
    return hash_name, range_name


_loader = None
_loader_lock = threading.Lock()
_on_sessions: list = []  # (event, handler) every new session registers


def register_on_sessions(event: str, handler) -> None:
    """Register a botocore event handler on every PynamoDB session made from now on (local
    mode answers its own endpoint's requests in process: app/local/in_process.py)."""
    _on_sessions.append((event, handler))


def session() -> botocore.session.Session:
    """A new botocore session that reads botocore's data files through the process's one
    loader (what PynamoDB calls for each connection and thread)."""
    global _loader
    fresh = botocore.session.get_session()
    with _loader_lock:
        if _loader is None:
            _loader = create_loader(fresh.get_config_variable("data_path"))
    fresh.register_component("data_loader", _loader)
    for event, handler in _on_sessions:
        fresh.register(event, handler)
    return fresh


pynamodb_connection.get_session = session
