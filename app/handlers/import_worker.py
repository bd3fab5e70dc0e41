"""Import worker: one SQS message per import started by POST /imports."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.handlers.queue import queue_handler
from app.imports import worker
from app.logs import logger
from app.metrics import metrics

bootstrap()
# A run reports its own failure on the import (FAILED, first bad line) and answers normally;
# only a crash (a timeout, the runtime dying) leaves the message to be redelivered, and a
# redelivered run first removes what the interrupted one wrote.
drain = queue_handler(worker.handle)


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return drain(event, context)
