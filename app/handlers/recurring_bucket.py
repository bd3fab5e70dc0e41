"""Recurring bucket worker: one SQS message per due bucket, sent by the hourly tick."""
from __future__ import annotations

from app.bootstrap import bootstrap
from app.services.recurring.tick import run_bucket_messages

bootstrap()


def lambda_handler(event, context):
    return run_bucket_messages(event)
