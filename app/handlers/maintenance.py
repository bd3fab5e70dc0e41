"""Maintenance schedule: outbox recovery, orphan sweeps, resumed group deletes, expiries."""
from __future__ import annotations

import models
from app.config import Settings
from app.logs import logger
from app.services.group_delete import resume_pending_deletes

settings = Settings.from_env()
models.configure(stage=settings.stage, region=settings.region, host=settings.dynamodb_endpoint)


def lambda_handler(event, context):
    """Resume interrupted group deletes; outbox recovery and sweepers join with their issues."""
    result = resume_pending_deletes()
    logger.info("maintenance_run", extra={"scheduled_at": event.get("time"), **result})
    return result
