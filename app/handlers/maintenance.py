"""Maintenance schedule: outbox recovery, orphan sweeps, resumed group deletes, expiries."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.metrics import metrics
from app.maintenance import run_maintenance

bootstrap()


@metrics.log_metrics
def lambda_handler(event, context):
    # The frequent schedules pass {"sweep": "outbox", "shards": [...]} (each its own shards,
    # side by side); the daily one runs everything. The outbox sweep stops before the
    # function's timeout and leaves the rest to the next run.
    event = event or {}
    remaining = context.get_remaining_time_in_millis() / 1000 if context is not None else None
    return run_maintenance(event.get("sweep"), remaining_s=remaining,
                           outbox_shards=event.get("shards"))
