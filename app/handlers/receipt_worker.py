"""Receipt worker: SQS messages from complete and scan, and a reconcile schedule."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.handlers.queue import queue_handler
from app.logs import logger
from app.metrics import metrics
from app.receipts import scanning, worker

settings = bootstrap()
# The schedule: re-drive scans whose hand-off was lost or whose run died, in place.
drain = queue_handler(lambda message: worker.handle(message, settings),
                      on_schedule=lambda: scanning.reconcile(
                          redrive=lambda item: worker.handle(item, settings)))


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return drain(event, context)
