"""Race helpers shared by the race tests: release threads together, and an app on the
serialized embedded endpoint."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import models
from app import create_app
from app.config import Settings


def together(functions) -> list:
    """Run every function at once (released by one barrier); their results, in order (the
    first exception propagates)."""
    barrier = threading.Barrier(len(functions))

    def run(function):
        barrier.wait()
        return function()

    with ThreadPoolExecutor(len(functions)) as pool:
        return list(pool.map(run, functions))


def live_app(live_db: str, data_dir) -> object:
    """A local-mode app on the live embedded endpoint, at the stage the tests configured."""
    stage = models.base.settings()["stage"]
    return create_app(Settings(stage=stage, region="us-east-1", dynamodb_endpoint=live_db,
                               local_mode=True, data_dir=str(data_dir), cursor_secret=b"race"))
