"""Cognito PostConfirmation + PostAuthentication: make sure the account and identities exist."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.logs import logger
from app.metrics import metrics
from app.users.provisioning import provision_from_cognito

settings = bootstrap()


@metrics.log_metrics
@logger.inject_lambda_context
def lambda_handler(event, context):
    return provision_from_cognito(event, test_domain=settings.test_account_domain)
