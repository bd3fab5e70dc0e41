"""Maintenance schedule: outbox recovery, orphan sweeps, resumed group deletes, expiries."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.handlers.time_left import seconds_left
from app.logs import logger
from app.metrics import metrics
from app.maintenance import run_maintenance

bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    # The frequent schedules pass {"sweep": "outbox", "shards": [...]} (each its own shards,
    # side by side); the daily one runs everything. The outbox sweep stops before the
    # function's timeout and leaves the rest to the next run.
    event = event or {}
    return run_maintenance(event.get("sweep"), remaining_s=seconds_left(context),
                           outbox_shards=event.get("shards"))
