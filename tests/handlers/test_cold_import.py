"""What importing the API handler leaves for later (docs/benchmarks.md "Cold start"): the
OpenAPI document, the libraries no first request needs, and the tables built on first use.

The import runs in a fresh interpreter with the deployed function's environment, as
bench/cold_start_bench.py measures it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from marshmallow import ValidationError
import pytest

from app.api.schemas import CURRENCY, DisplayName
from app.money import currencies

ROOT = Path(__file__).resolve().parents[2]
# Each loads data or a whole framework on import, and only some requests (or workers) use it.
LOADED_WHERE_USED = ("schwifty", "PIL", "pillow_heif", "authlib.oauth2", "iso4217",
                     "dateutil.rrule", "zoneinfo", "rapidfuzz", "currency_converter",
                     "pywebpush", "boto3")
PROBE = """
import gc, json, sys
import app.handlers.api as handler
from app import names
from app.money import currencies
api = handler.app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
print(json.dumps({
    "loaded": sorted(name for name in sys.modules if name.startswith(tuple(sys.argv[1:]))),
    "documented": api.documented,
    "name_pattern_built": names.pattern.cache_info().currsize,
    "currency_table_read": currencies._table.cache_info().currsize,
    "frozen": gc.get_freeze_count(), "collecting": gc.isenabled()}))
"""
DEPLOYED_ENV = {"TAILSPEND_STAGE": "bench", "AWS_DEFAULT_REGION": "us-east-1",
                "COGNITO_USER_POOL_ID": "us-east-1_bench", "COGNITO_CLIENT_ID": "bench",
                "CURSOR_SECRET": "bench-cursor-secret", "LOG_LEVEL": "WARNING",
                "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench"}


def test_importing_the_api_handler_builds_no_document_and_loads_no_library_it_can_defer():
    env = {k: v for k, v in os.environ.items() if k not in ("TAILSPEND_LOCAL", "PYTHONPATH")}
    out = subprocess.run([sys.executable, "-c", PROBE, *LOADED_WHERE_USED], cwd=ROOT,
                         env=env | DEPLOYED_ENV, capture_output=True, text=True, check=True)
    state = json.loads(out.stdout.strip().splitlines()[-1])
    assert state["loaded"] == []
    assert state["documented"] is False
    assert state["name_pattern_built"] == state["currency_table_read"] == 0
    assert state["frozen"] > 10_000 and state["collecting"] is True


def test_the_currency_table_read_on_first_use_is_the_iso_4217_table():
    from iso4217 import Currency

    table = {c.code: c.exponent for c in Currency if c.exponent is not None}
    assert dict(currencies.MINOR_UNITS) == table and set(currencies.CODES) == set(table)
    assert currencies.MINOR_UNITS["JPY"] == 0 and currencies.MINOR_UNITS.get("XAU", 2) == 2
    assert "EUR" in currencies.CODES and "XXX" not in currencies.CODES
    assert len(currencies.CODES) == len(table)
    assert CURRENCY("KWD") == "KWD" and CURRENCY.choices == sorted(table)
    with pytest.raises(ValidationError, match="ISO 4217"):
        CURRENCY("EURO")


def test_a_display_name_is_checked_by_the_pattern_built_on_first_use():
    field = DisplayName()
    assert field.deserialize("  Zoë ") == "  Zoë "  # blanks inside the pattern's reach
    for refused in (" \t ", "a\u200bb"):
        with pytest.raises(ValidationError):
            field.deserialize(refused)
