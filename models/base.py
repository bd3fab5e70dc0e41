"""Table naming and connection settings shared by every model.

Physical names are ``tailspend-{stage}-{table}``. The stage, region and endpoint are read
from the environment once at import (what a Lambda needs) and can be re-pointed with
:func:`configure` (what local mode and the tests need).
"""
from __future__ import annotations

import os
import time
from typing import Dict, Iterable, Iterator, List, Optional, Tuple, Type

from pynamodb.attributes import UnicodeAttribute
from pynamodb.connection import Connection
from pynamodb.models import Model

from models import pynamodb_adapter

_settings = {
    "stage": os.environ.get("TAILSPEND_STAGE", "dev"),
    "region": os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1",
    "host": os.environ.get("DYNAMODB_ENDPOINT") or None,
}
_tables: Dict[str, Type[Model]] = {}


def physical_name(table: str, stage: Optional[str] = None) -> str:
    """The deployed name of a logical table, e.g. ``tailspend-dev-groups``."""
    return f"tailspend-{stage or _settings['stage']}-{table}"


def table(logical_name: str):
    """Class decorator registering a table's base model under its logical name."""

    def register(model: Type[Model]) -> Type[Model]:
        model.Meta.table_name = physical_name(logical_name)
        model.Meta.region = _settings["region"]
        model.Meta.host = _settings["host"]
        model.Meta.max_retry_attempts = 3
        model.logical_name = logical_name
        _tables[logical_name] = model
        pynamodb_adapter.share_connection(model)
        return model

    return register


def configure(*, stage: Optional[str] = None, region: Optional[str] = None,
              host: Optional[str] = "") -> None:
    """Point every model at a stage and endpoint (``host=None`` means real AWS/moto).

    Connections are dropped only when the stage, region or endpoint changes: each new one
    builds a botocore client (tens of ms), and the tests point the models at the same moto
    before every test."""
    before = dict(_settings)
    if stage is not None:
        _settings["stage"] = stage
    if region is not None:
        _settings["region"] = region
    if host != "":
        _settings["host"] = host
    if _settings != before:
        reconnect()


def reconnect() -> None:
    """Drop every cached connection: the next call builds a new client (and botocore session)
    from the models' current settings (after a SnapStart restore, or :func:`configure`)."""
    for name, model in _tables.items():
        model.Meta.table_name = physical_name(name)
        model.Meta.region = _settings["region"]
        model.Meta.host = _settings["host"]
        pynamodb_adapter.share_connection(model)
    _connection_cache.clear()


_connection_cache: List[Connection] = []


def connection() -> Connection:
    """A low-level connection for transactions spanning tables (cached until reconfigured)."""
    if not _connection_cache:
        _connection_cache.append(Connection(region=_settings["region"], host=_settings["host"],
                                            max_retry_attempts=3))
    return _connection_cache[0]


def registered_tables() -> Dict[str, Type[Model]]:
    """Logical table name -> base model, for schema checks and table creation."""
    return dict(_tables)


def settings() -> dict:
    return dict(_settings)


class KeyString(UnicodeAttribute):
    """A string attribute that is part of a key; documented to never change after create."""


class UnprocessedItemsLeft(RuntimeError):
    """A batch call still had unprocessed keys after every retry (sustained throttling)."""


UNPROCESSED_RETRIES = 8
BATCH_GET_LIMIT = 100
BATCH_WRITE_LIMIT = 25


def _until_processed(send, pending: list, leftover) -> None:
    """Call ``send(pending)`` and resend what ``leftover(reply)`` names, backing off.

    The one retry loop for BatchGetItem and BatchWriteItem: DynamoDB returns what it
    throttled as Unprocessed*, to be sent again after an exponential pause."""
    for attempt in range(UNPROCESSED_RETRIES + 1):
        pending = leftover(send(pending))
        if not pending:
            return
        if attempt == UNPROCESSED_RETRIES:
            raise UnprocessedItemsLeft(f"{len(pending)} keys still unprocessed")
        time.sleep(min(0.05 * 2 ** attempt, 1.0))


class RawAccess:
    """Raw DynamoDB-JSON access patterns of a table's base model.

    For rows a model instance can't hold (BALANCE#v1's dynamic ``Net_<id>`` attributes) and
    for key-only sweeps that must not pay for whole items. Raw items stay inside the
    caller's use of them; keys are dicts of attribute name -> plain string."""

    @classmethod
    def _key_names(cls) -> tuple:
        return pynamodb_adapter.key_names(cls)

    @classmethod
    def from_raw(cls, raw: Optional[dict]):
        """The row a raw DynamoDB item holds, as this class (PynamoDB's public
        ``from_raw_data``, the discriminator picking the row kind), or None when the item is
        absent or of another kind: services read rows, never attribute maps."""
        if not raw:
            return None
        try:
            row = cls.from_raw_data(raw)
        except ValueError:  # a discriminator naming a kind outside this class
            return None
        return row if isinstance(row, cls) else None

    @classmethod
    def raw_get(cls, hash_key: str, range_key: str, *, consistent_read: bool = True) -> Optional[dict]:
        return pynamodb_adapter.table_connection(cls).get_item(
            hash_key, range_key, consistent_read=consistent_read).get("Item")

    @classmethod
    def raw_page(cls, hash_key: str, *, range_key_condition=None, filter_condition=None,
                 keys_only: bool = False, page_size: Optional[int] = None,
                 consistent_read: bool = True, start: Optional[dict] = None) -> tuple:
        """One page of a partition query: (raw items, LastEvaluatedKey or None).

        With ``keys_only`` the items are plain (hash, range) tuples."""
        page = pynamodb_adapter.table_connection(cls).query(
            hash_key, range_key_condition=range_key_condition,
            filter_condition=filter_condition, consistent_read=consistent_read,
            attributes_to_get=list(cls._key_names()) if keys_only else None,
            exclusive_start_key=start, limit=page_size)
        items = page.get("Items", [])
        if keys_only:
            items = [cls._plain_key(item) for item in items]
        return items, page.get("LastEvaluatedKey")

    @classmethod
    def _plain_key(cls, raw_item: dict) -> tuple:
        hash_name, range_name = cls._key_names()
        return raw_item[hash_name]["S"], raw_item[range_name]["S"]

    @classmethod
    def raw_pages(cls, hash_key: str, **query) -> Iterator[List[dict]]:
        """Every page of a partition query (the one paging loop); a page may be empty when a
        filter dropped all its rows, which is not the end."""
        start = None
        while True:
            items, start = cls.raw_page(hash_key, start=start, **query)
            yield items
            if not start:
                return

    @classmethod
    def raw_scan_page(cls, *, filter_condition=None, attributes: Optional[List[str]] = None,
                      page_size: Optional[int] = None, start: Optional[dict] = None) -> tuple:
        """One page of a table Scan: (raw items, LastEvaluatedKey or None).

        Only for bounded, cursor-resumed maintenance sweeps: never on a request path."""
        page = pynamodb_adapter.table_connection(cls).scan(
            filter_condition=filter_condition, attributes_to_get=attributes, limit=page_size,
            exclusive_start_key=start, consistent_read=False)
        return page.get("Items", []), page.get("LastEvaluatedKey")

    @classmethod
    def raw_batch_get(cls, keys: Iterable[tuple], *,
                      consistent_read: bool = False) -> Dict[tuple, dict]:
        """Raw items by (hash, range) key, in batches of 100; absent keys are left out."""
        hash_name, range_name = cls._key_names()
        table_name = cls.Meta.table_name
        keys = list(dict.fromkeys(keys))
        found: Dict[tuple, dict] = {}

        def send(pending: list) -> dict:
            reply = pynamodb_adapter.table_connection(cls).batch_get_item(
                pending, consistent_read=consistent_read)
            for item in reply.get("Responses", {}).get(table_name, []):
                found[(item[hash_name]["S"], item[range_name]["S"])] = item
            return reply

        def leftover(reply: dict) -> list:
            return ((reply.get("UnprocessedKeys") or {}).get(table_name) or {}).get("Keys", [])

        for start in range(0, len(keys), BATCH_GET_LIMIT):
            _until_processed(send, [{hash_name: h, range_name: r}
                                    for h, r in keys[start:start + BATCH_GET_LIMIT]], leftover)
        return found

    @classmethod
    def raw_batch_delete(cls, keys: List[tuple]) -> None:
        """Delete (hash, range) keys, as ``raw_pages(keys_only=True)`` yields them, 25 a call."""
        table_name = cls.Meta.table_name
        hash_name, range_name = cls._key_names()
        keys = [{hash_name: {"S": h}, range_name: {"S": r}} for h, r in keys]
        connection = pynamodb_adapter.table_connection(cls)

        def leftover(reply: dict) -> list:
            unprocessed = (reply.get("UnprocessedItems") or {}).get(table_name) or []
            return [request["DeleteRequest"]["Key"] for request in unprocessed]

        for start in range(0, len(keys), BATCH_WRITE_LIMIT):
            _until_processed(lambda pending: connection.batch_write_item(delete_items=pending),
                             keys[start:start + BATCH_WRITE_LIMIT], leftover)


def batch_get_across(keys: Iterable[Tuple[type, tuple]], *, consistent_read: bool = False,
                     consistent: Iterable[type] = ()) -> Dict[Tuple[type, tuple], dict]:
    """Raw items of up to 100 (model, (hash, range)) keys across tables in one BatchGetItem
    (a request's liveness read of the caller's profile joins its group rows); absent keys
    are left out. The models' key attributes are strings. ``consistent``: models whose
    tables alone are read strongly consistent (ConsistentRead is per table)."""
    strong = {model.Meta.table_name for model in consistent}
    keys = list(dict.fromkeys(keys))
    if len(keys) > BATCH_GET_LIMIT:
        raise ValueError(f"at most {BATCH_GET_LIMIT} keys in one batch")
    by_table: Dict[str, tuple] = {}
    for model, _ in keys:
        by_table.setdefault(model.Meta.table_name, (model, pynamodb_adapter.key_names(model)))
    found: Dict[Tuple[type, tuple], dict] = {}
    wanted = {(model.Meta.table_name, key): (model, key) for model, key in keys}

    def send(pending: dict) -> dict:
        reply = connection().client.batch_get_item(RequestItems=pending)
        for table_name, items in reply.get("Responses", {}).items():
            names = by_table[table_name][1]
            for item in items:
                key = (item[names[0]]["S"], item[names[1]]["S"])
                if (table_name, key) in wanted:
                    found[wanted[(table_name, key)]] = item
        return reply

    request: Dict[str, dict] = {}
    for model, (hash_key, range_key) in keys:
        names = by_table[model.Meta.table_name][1]
        entry = request.setdefault(model.Meta.table_name, {
            "Keys": [], "ConsistentRead": consistent_read or model.Meta.table_name in strong})
        entry["Keys"].append({names[0]: {"S": hash_key}, names[1]: {"S": range_key}})
    _until_processed(send, request, lambda reply: reply.get("UnprocessedKeys") or {})
    return found
