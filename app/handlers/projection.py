"""Projection worker: the groups table's stream -> each account's cross-group rows
(app/insight/projection.py, docs/layout.md "Cross-group reads").

The mapping's filter admits inserted CHANGE rows and inserted or removed USERMEMBER rows
(the realtime publisher's filter); failed records are reported, bisected, retried, then
sent to the failure queue."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.insight.project_stream import project_batch
from app.logs import logger
from app.metrics import metrics

bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return project_batch(list(event.get("Records") or []))
