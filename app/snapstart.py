"""Lambda SnapStart runtime hooks: per-process state that must not survive a snapshot restore.

Every execution environment restored from one snapshot starts with the same memory. Whatever
was seeded or opened during init would be shared by all of them: the `random` state (identical
"random" sequences), pooled HTTP connections of boto/PynamoDB (sockets that died with the
snapshot), and the fetched JWKS keys (possibly rotated since). The after-restore hook resets them.

`snapshot_restore_py` ships with the Lambda Python runtime only; elsewhere (tests, local mode)
`register()` does nothing. Importing this module stays cheap: the heavy imports wait for the hook.
"""
from __future__ import annotations

import random
from typing import Callable, Optional


def _runtime_register() -> Optional[Callable[[Callable[[], None]], object]]:
    try:
        from snapshot_restore_py import register_after_restore
    except ImportError:  # not running on a SnapStart-capable Lambda runtime
        return None
    return register_after_restore


def after_restore() -> None:
    """Reseed `random`, drop cached DynamoDB connections and forget the JWKS keys."""
    random.seed()  # from os.urandom: each restored environment gets its own sequence

    import models
    from app.auth import jwks
    models.configure()  # same stage/region/endpoint, fresh connections (and botocore sessions)
    jwks.clear_all()


def register() -> bool:
    """Install `after_restore` as an after-restore hook; False when the runtime has none."""
    register_after_restore = _runtime_register()
    if register_after_restore is None:
        return False
    register_after_restore(after_restore)
    return True
