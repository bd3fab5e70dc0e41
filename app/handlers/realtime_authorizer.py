"""AppSync Events' Lambda authorizer: connect and subscribe with our realtime token, checked
against the account and memberships as they are now (app/realtime/admission.py,
the same check local mode's server makes; docs/realtime.md)."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.logs import logger
from app.metrics import metrics
from app.realtime.admission import authorize

bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return authorize(event)
