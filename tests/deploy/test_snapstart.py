"""app/snapstart.py: the after-restore hook resets what a snapshot would otherwise share."""
from __future__ import annotations

import random
import subprocess
import sys
import types

import pytest

import models
from models import pynamodb_adapter
from app import snapstart
from app.auth.jwks import JwksCache
from models.base import connection
from tests.support.probe import probe

SIGNING_KEY = {"keys": [{"kty": "oct", "kid": "k1", "k": "c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw"}]}


def test_after_restore_reseeds_random():
    random.seed(1234)
    from_snapshot = [random.random() for _ in range(4)]
    random.seed(1234)  # the state every restored environment would share

    snapstart.after_restore()

    assert [random.random() for _ in range(4)] != from_snapshot


def test_after_restore_drops_cached_dynamodb_connections(aws):
    model = models.registered_tables()["groups"]
    cached_model_connection = pynamodb_adapter.table_connection(model)
    cached_transaction_connection = connection()
    assert pynamodb_adapter.table_connection(model) is cached_model_connection

    snapstart.after_restore()

    assert pynamodb_adapter.table_connection(model) is not cached_model_connection
    assert connection() is not cached_transaction_connection
    assert model.Meta.table_name == "tailspend-test-groups"  # configuration kept


def test_after_restore_clears_every_jwks_cache():
    fetches = []

    def fetch():
        fetches.append(1)
        return SIGNING_KEY

    caches = [JwksCache(fetch, min_refresh=3600), JwksCache(fetch, min_refresh=3600)]
    for cache in caches:
        assert cache.key_for("k1") is not None
    assert len(fetches) == 2

    snapstart.after_restore()

    for cache in caches:
        assert cache.key_for("k1") is not None
    assert len(fetches) == 4  # each cache fetched again instead of trusting the snapshot's keys


def test_register_is_a_no_op_off_lambda(monkeypatch):
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", None)  # import fails as off Lambda

    assert snapstart.register(object()) is False


def _fake_runtime(monkeypatch) -> list:
    """snapshot_restore_py as the Lambda runtime ships it: hooks take a callable and its args."""
    registered = []
    runtime = types.ModuleType("snapshot_restore_py")
    runtime.register_before_snapshot = lambda func, *args: registered.append(("before", func, args))
    runtime.register_after_restore = lambda func, *args: registered.append(("after", func, args))
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", runtime)
    return registered


def test_register_installs_both_hooks_with_the_runtime(monkeypatch):
    registered = _fake_runtime(monkeypatch)
    app = object()

    assert snapstart.register(app) is True
    assert registered == [("before", snapstart.before_snapshot, (app,)),
                          ("after", snapstart.after_restore, ())]


SNAPSHOT_PROBE = """
import json, sys
import app.handlers.api as handler
from app import snapstart
before = {"gate": "app.developer.limits" in sys.modules}
snapstart.before_snapshot(handler.app)
reply = handler.app.test_client().get("/openapi.json")
from models import pynamodb_adapter
loader = pynamodb_adapter.session().get_component("data_loader")
print(json.dumps({"before": before,
                  "tables_missing": [t for t in ("groups", "notifications", "people", "users")
                                     if "models." + t not in sys.modules],
                  "gate_missing": [m for m in ("app.developer.limits",
                                               "app.developer.verify")
                                   if m not in sys.modules],
                  "openapi": reply.status_code, "paths": len(reply.get_json()["paths"]),
                  # the loader's own cache: what it will not read again
                  "botocore_read": [list(key[:2]) for key in loader._cache]}))
"""


def test_before_snapshot_loads_every_table_and_the_gate(tmp_path):
    seen = probe(SNAPSHOT_PROBE, {  # as deployed: not local mode
        "TAILSPEND_STAGE": "probe", "AWS_DEFAULT_REGION": "us-east-1",
        "COGNITO_USER_POOL_ID": "us-east-1_probe", "COGNITO_CLIENT_ID": "probe",
        "CURSOR_SECRET": "probe", "LOG_LEVEL": "WARNING"})

    assert seen["before"] == {"gate": False}  # loaded on first use ...
    assert seen["tables_missing"] == [] and seen["gate_missing"] == []  # ... or by the hook
    assert seen["openapi"] == 200 and seen["paths"] > 50
    # A restored environment's first client finds these read (models/pynamodb_adapter.py).
    assert ["load_data_with_path", "endpoints"] in seen["botocore_read"]
    assert ["load_service_model", "dynamodb"] in seen["botocore_read"]


def test_importing_the_module_stays_cheap():
    code = ("import sys, app.snapstart; "
            "print(sorted(m for m in ('flask', 'pynamodb', 'botocore', 'jwt') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

    assert result.stdout.strip() == "[]"


@pytest.fixture
def api_module(monkeypatch):
    registered = _fake_runtime(monkeypatch)
    monkeypatch.delitem(sys.modules, "app.handlers.api", raising=False)
    import app.handlers.api as api
    yield api, registered
    sys.modules.pop("app.handlers.api", None)


def test_api_handler_registers_the_hooks_at_init(api_module):
    api, registered = api_module

    assert registered == [("before", snapstart.before_snapshot, (api.app,)),
                          ("after", snapstart.after_restore, ())]
