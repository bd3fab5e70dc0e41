"""Projection worker: the groups table's stream -> each account's cross-group rows
(app/insight/projection.py, docs/layout.md "Cross-group reads").

The mapping's filter admits inserted CHANGE rows and inserted or removed USERMEMBER rows
(the realtime publisher's filter); failed records are reported, bisected, retried, then
sent to the failure queue. Invoked by hand with ``{"backfillProjection": {...}}``
(events/backfill_projection.json), it runs one call of the one-off backfill instead
(app/insight/backfill.py, docs/deploy.md)."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.handlers.time_left import seconds_left
from app.insight import backfill
from app.insight.project_stream import project_batch
from app.logs import logger
from app.metrics import metrics

bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    if backfill.BACKFILL in event:
        return backfill.run(event[backfill.BACKFILL], seconds_left(context))
    return project_batch(list(event.get("Records") or []))
