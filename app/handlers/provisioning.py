"""Cognito PostConfirmation + PostAuthentication: make sure the account and identities exist."""
from __future__ import annotations

import models
from app.config import Settings
from app.logs import logger
from app.services.provisioning import provision_user

settings = Settings.from_env()
models.configure(stage=settings.stage, region=settings.region, host=settings.dynamodb_endpoint)

HANDLED = ("PostConfirmation_ConfirmSignUp", "PostConfirmation_ConfirmForgotPassword",
           "PostAuthentication_Authentication")


def lambda_handler(event, context):
    """Cognito requires the event back; provisioning is idempotent, so replays are harmless."""
    if event.get("triggerSource") in HANDLED:
        attributes = event["request"]["userAttributes"]
        user_id = provision_user(
            provider="cognito", subject=attributes["sub"], email=attributes.get("email", ""),
            display_name=attributes.get("name") or attributes.get("preferred_username"),
            identities_attribute=attributes.get("identities"),
            test_domain=settings.test_account_domain)
        logger.info("provisioning.done", extra={"user_id": user_id,
                                                "trigger": event["triggerSource"]})
    return event
