"""Maintenance schedule: outbox recovery, orphan sweeps, resumed group deletes, expiries."""
from __future__ import annotations

import models
from app.config import Settings
from app.logs import logger

settings = Settings.from_env()
models.configure(stage=settings.stage, region=settings.region, host=settings.dynamodb_endpoint)


def lambda_handler(event, context):
    logger.info("maintenance_run", extra={"scheduled_at": event.get("time")})
    return {"resumedGroupDeletes": 0}
