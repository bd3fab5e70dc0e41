"""Hourly schedule: materialise due recurring expenses and create reminders (a later issue)."""
from __future__ import annotations

import models
from app.config import Settings
from app.logs import logger

settings = Settings.from_env()
models.configure(stage=settings.stage, region=settings.region, host=settings.dynamodb_endpoint)


def lambda_handler(event, context):
    logger.info("hourly_tick", extra={"scheduled_at": event.get("time")})
    return {"materialised": 0, "reminders": 0}
