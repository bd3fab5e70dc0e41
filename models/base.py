"""Table naming and connection settings shared by every model.

Physical names are ``tailspend-{stage}-{table}``. The stage, region and endpoint are read
from the environment once at import (what a Lambda needs) and can be re-pointed with
:func:`configure` (what local mode and the tests need).
"""
from __future__ import annotations

import os
from typing import Dict, List, Optional, Type

from pynamodb.attributes import UnicodeAttribute
from pynamodb.connection import Connection
from pynamodb.models import Model

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
        return model

    return register


def configure(*, stage: Optional[str] = None, region: Optional[str] = None,
              host: Optional[str] = "") -> None:
    """Point every model at a stage and endpoint (``host=None`` means real AWS/moto)."""
    if stage is not None:
        _settings["stage"] = stage
    if region is not None:
        _settings["region"] = region
    if host != "":
        _settings["host"] = host
    for name, model in _tables.items():
        model.Meta.table_name = physical_name(name)
        model.Meta.region = _settings["region"]
        model.Meta.host = _settings["host"]
        _reset_connections(model)
    _connection_cache.clear()


def _reset_connections(model: Type[Model]) -> None:
    model._connection = None
    for sub in model.__subclasses__():
        _reset_connections(sub)


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
