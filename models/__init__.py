"""PynamoDB models: one module per table; key builders and access patterns live beside each model.

Table modules are imported by the code that uses them, not here: a Lambda, or the API's
first request to an area, pays only for the tables it touches (each model class costs
PynamoDB's metaclass a scan of the class; all of them are a third of the API's own start-up).
A module imported late still gets the current stage and endpoint: ``models.base.table``
reads them when it registers the model."""
from __future__ import annotations

import importlib
import pkgutil
from typing import Dict, Type

from pynamodb.models import Model

from models import base
from models.base import configure, connection, physical_name, reconnect

__all__ = ["configure", "connection", "physical_name", "reconnect", "registered_tables"]


def registered_tables() -> Dict[str, Type[Model]]:
    """Logical table name -> base model, every table module imported (every module here but
    ``base`` and ``pynamodb_adapter`` is one table): for schema checks and table set-up."""
    for module in pkgutil.iter_modules(__path__):
        if module.name not in ("base", "pynamodb_adapter"):
            importlib.import_module(f"{__name__}.{module.name}")
    return base.registered_tables()
