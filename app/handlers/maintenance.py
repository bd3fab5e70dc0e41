"""Maintenance schedule: outbox recovery, orphan sweeps, resumed group deletes, expiries,
e-mail digests."""
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
    # side by side); the daily one runs everything; the digests' passes {"sweep": "digests"}
    # (an operator may add "time" to send an earlier period's). The outbox sweep and the
    # digests stop before the function's timeout and leave the rest to the next run.
    event = event or {}
    return run_maintenance(event.get("sweep"), remaining_s=seconds_left(context),
                           outbox_shards=event.get("shards"),
                           now=event.get("time") if event.get("sweep") == "digests" else None)
