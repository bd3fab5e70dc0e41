"""Hourly schedule: materialise due recurring expenses and create reminders.

``now`` is the schedule's own ``time``: a retried invocation works as of the hour it was
scheduled for (later slots belong to later ticks)."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.logs import logger
from app.metrics import metrics
from app.recurring.tick import run_tick

bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return run_tick((event or {}).get("time"))
