"""Realtime publisher: the groups and notifications tables' streams -> pokes on AppSync Events
(docs/realtime.md).

The groups mapping's filter admits inserted CHANGE rows and inserted or removed USERMEMBER
rows; the notifications mapping's, inserted or modified NOTIF and PREFS rows; failed records are reported (ReportBatchItemFailures) and bisected, retried,
then sent to the failure queue, like the other stream consumers."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.logs import logger
from app.metrics import metrics
from app.realtime.publisher import publish_batch

bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return publish_batch(list(event.get("Records") or []))
