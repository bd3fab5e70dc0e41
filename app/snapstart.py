"""Lambda SnapStart runtime hooks: load everything before the snapshot; after a restore, reset
per-process state that must not be shared.

Before the snapshot: the API's init builds the whole app (every blueprint); its table modules
and the developer gate's limiter and verifier load on first use. With SnapStart init is paid
once, when the version is published, so the hook loads those too and serves the OpenAPI
document once (its first read builds it: app.api.smorest_adapter): every restored environment
then starts with them in memory instead of loading them on its first request.

After a restore: every execution environment restored from one snapshot starts with the same
memory. Whatever was seeded or opened during init would be shared by all of them: the `random`
state (identical "random" sequences), pooled HTTP connections of boto/PynamoDB (sockets that died
with the snapshot), and the fetched JWKS keys (possibly rotated since). The hook resets them.

`snapshot_restore_py` ships with the Lambda Python runtime only; elsewhere (tests, local mode)
`register()` does nothing. Importing this module stays cheap: the heavy imports wait for the hook.
"""
from __future__ import annotations

import random
from typing import Callable, Optional, Tuple


def _runtime_hooks() -> Optional[Tuple[Callable[..., object], Callable[..., object]]]:
    try:
        from snapshot_restore_py import register_after_restore, register_before_snapshot
    except ImportError:  # not running on a SnapStart-capable Lambda runtime
        return None
    return register_before_snapshot, register_after_restore


def before_snapshot(app) -> None:
    """Load every table module, botocore's DynamoDB data and the developer gate's rate
    limiter and PAT verifier, and render the OpenAPI document once (``app``: the handler's
    Flask app)."""
    import models
    models.registered_tables()
    # botocore's endpoints and DynamoDB model, read into the process's one loader
    # (models/pynamodb_adapter.py): after a restore each table's first call then builds its
    # client in ~7 ms instead of reading them again (~74 ms). No network: the client waits.
    models.connection().client  # noqa: B018 - building it is the point
    app.test_client().get("/openapi.json")
    gate = app.extensions["tailspend"].developer
    gate.limiter, gate.verifier  # noqa: B018 - each loads on first read


def after_restore() -> None:
    """Reseed `random`, drop cached DynamoDB connections and forget the JWKS keys."""
    random.seed()  # from os.urandom: each restored environment gets its own sequence

    import models
    from app.auth import jwks
    models.reconnect()  # same stage/region/endpoint, fresh connections (and botocore sessions)
    jwks.clear_all()


def register(app) -> bool:
    """Install both hooks for this app; False when the runtime has none."""
    hooks = _runtime_hooks()
    if hooks is None:
        return False
    register_before_snapshot, register_after_restore = hooks
    register_before_snapshot(before_snapshot, app)
    register_after_restore(after_restore)
    return True
