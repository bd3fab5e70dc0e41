"""Deployed fan-out: the hourly tick sends one SQS message per due bucket to the worker.

Enabled by the "recurring-bucket" queue's setting (RECURRING_BUCKET_QUEUE_URL, which the
template sets on the HourlyTick function; app.core.handoff); without it, local mode
runs every bucket in-process."""
from __future__ import annotations

from typing import Iterable

from app.core import handoff

QUEUE = handoff.Queue("recurring-bucket", lambda settings: settings.recurring_bucket_queue_url)


def enabled() -> bool:
    return bool(QUEUE.url())


def send(buckets: Iterable[str], now: str) -> int:
    """Queue ``{"bucket", "now"}`` per bucket; returns how many were sent."""
    return handoff.send_all(QUEUE, ({"bucket": bucket, "now": now} for bucket in buckets))
