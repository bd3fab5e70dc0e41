"""The RecurringBucketWorker's one message: run the due bucket the hourly tick sent."""
from __future__ import annotations

from app.recurring.tick import run_bucket_message


def handle(message: dict) -> None:
    """Run ``{"bucket", "now"}`` (app.recurring.fanout.send wrote it); raises when the bucket
    failed, so only its message is redelivered."""
    run_bucket_message(message["bucket"], message["now"])
