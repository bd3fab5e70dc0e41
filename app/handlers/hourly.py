"""Hourly schedule: materialise due recurring expenses and create reminders."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.services.recurring.tick import run_tick

bootstrap()


def lambda_handler(event, context):
    return run_tick()
