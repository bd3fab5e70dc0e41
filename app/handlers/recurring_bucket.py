"""Recurring bucket worker: one SQS message per due bucket, sent by the hourly tick."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.handlers.queue import queue_handler
from app.logs import logger
from app.metrics import metrics
from app.recurring import worker

bootstrap()
# The service logs a failed bucket itself (recurring.bucket_failed, which the template counts).
drain = queue_handler(worker.handle, log_failures=False)


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return drain(event, context)
