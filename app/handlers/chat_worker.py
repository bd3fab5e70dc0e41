"""Chat worker: SQS messages from POST /chat/sessions/{id}/messages, and a resume schedule."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.chat import worker
from app.chat.work import reconcile
from app.handlers.queue import queue_handler
from app.logs import logger
from app.metrics import metrics

settings = bootstrap()
# The schedule: re-drive messages whose hand-off was lost or whose run died, in place.
drain = queue_handler(lambda message: worker.handle(message, settings),
                      on_schedule=lambda: reconcile(
                          redrive=lambda item: worker.handle(item, settings)))


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return drain(event, context)
