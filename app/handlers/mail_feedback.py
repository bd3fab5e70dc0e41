"""SES bounces and complaints, delivered by SNS: suppress the addresses."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.logs import logger
from app.metrics import metrics
from app.notifications import feedback

bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return {"suppressed": feedback.handle_sns(event.get("Records") or [])}
