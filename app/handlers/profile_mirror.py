"""Profile mirror worker: one SQS message per rename answered by PATCH /users/me."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.handlers.queue import queue_handler
from app.logs import logger
from app.metrics import metrics
from app.users import worker

bootstrap()
drain = queue_handler(worker.handle)


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return drain(event, context)
