"""Maintenance schedule: outbox recovery, orphan sweeps, resumed group deletes, expiries,
e-mail digests."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.handlers.time_left import seconds_left
from app.logs import logger
from app.metrics import metrics
from app.maintenance import DEADLINE_MARGIN_S as END_MARGIN_S, run_maintenance
from app.notifications import push

bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    # The frequent schedules pass {"sweep": "outbox", "shards": [...]} (each its own shards,
    # side by side); the daily one runs everything; the digests' passes {"sweep": "digests"}
    # (an operator may add "time" to send an earlier period's). The outbox sweep and the
    # digests stop before the function's timeout and leave the rest to the next run.
    event = event or {}
    remaining = seconds_left(context)
    # The outbox sweep's e-mails and pushes, like the worker's, end with the invocation.
    with push.invocation_ends_in(None if remaining is None else remaining - END_MARGIN_S):
        return run_maintenance(
            event.get("sweep"), remaining_s=remaining, outbox_shards=event.get("shards"),
            now=event.get("time") if event.get("sweep") == "digests" else None)
