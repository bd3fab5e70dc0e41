"""Account deletion worker: SQS messages from DELETE /users/me, and a 5-minute resume schedule."""
from __future__ import annotations

from app.account import worker
from app.account.finish_deletion import run_schedule
from app.bootstrap import bootstrap
from app.handlers.queue import queue_handler
from app.logs import logger
from app.metrics import metrics

bootstrap()
drain = queue_handler(worker.handle, on_schedule=run_schedule)


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return drain(event, context)
