"""app/snapstart.py: the after-restore hook resets what a snapshot would otherwise share."""
from __future__ import annotations

import random
import subprocess
import sys
import types

import pytest

import models
from app import snapstart
from app.auth.jwks import JwksCache
from models.base import connection

SIGNING_KEY = {"keys": [{"kty": "oct", "kid": "k1", "k": "c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw"}]}


def test_after_restore_reseeds_random():
    random.seed(1234)
    from_snapshot = [random.random() for _ in range(4)]
    random.seed(1234)  # the state every restored environment would share

    snapstart.after_restore()

    assert [random.random() for _ in range(4)] != from_snapshot


def test_after_restore_drops_cached_dynamodb_connections(aws):
    model = models.registered_tables()["groups"]
    cached_model_connection = model._get_connection()
    cached_transaction_connection = connection()
    assert model._get_connection() is cached_model_connection

    snapstart.after_restore()

    assert model._get_connection() is not cached_model_connection
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

    assert snapstart.register() is False


def test_register_installs_after_restore_with_the_runtime_hooks(monkeypatch):
    registered = []
    runtime = types.ModuleType("snapshot_restore_py")
    runtime.register_after_restore = registered.append
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", runtime)

    assert snapstart.register() is True
    assert registered == [snapstart.after_restore]


def test_importing_the_module_stays_cheap():
    probe = ("import sys, app.snapstart; "
             "print(sorted(m for m in ('flask', 'pynamodb', 'botocore', 'jwt') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)

    assert result.stdout.strip() == "[]"


@pytest.fixture
def api_module(monkeypatch):
    registered = []
    runtime = types.ModuleType("snapshot_restore_py")
    runtime.register_after_restore = registered.append
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", runtime)
    monkeypatch.delitem(sys.modules, "app.handlers.api", raising=False)
    import app.handlers.api as api
    yield api, registered
    sys.modules.pop("app.handlers.api", None)


def test_api_handler_registers_the_hook_at_init(api_module):
    _, registered = api_module

    assert registered == [snapstart.after_restore]
