"""Deployed fan-out: the hourly tick sends one SQS message per due bucket to the worker.

Enabled by RECURRING_BUCKET_QUEUE_URL (the template sets it on the HourlyTick function);
without it, local mode runs every bucket in-process."""
from __future__ import annotations

import json
import os
from typing import Iterable, Tuple

QUEUE_URL_ENV = "RECURRING_BUCKET_QUEUE_URL"
_SQS_BATCH = 10


def enabled() -> bool:
    return bool(os.environ.get(QUEUE_URL_ENV))


def send(buckets: Iterable[str], now: str) -> int:
    """Queue ``{"bucket", "now"}`` per bucket (10 per call); returns how many were sent."""
    import boto3

    client = boto3.client("sqs")
    buckets = list(buckets)
    for start in range(0, len(buckets), _SQS_BATCH):
        entries = [{"Id": str(index), "MessageBody": json.dumps({"bucket": b, "now": now})}
                   for index, b in enumerate(buckets[start:start + _SQS_BATCH])]
        reply = client.send_message_batch(QueueUrl=os.environ[QUEUE_URL_ENV], Entries=entries)
        if reply.get("Failed"):
            raise RuntimeError(f"{len(reply['Failed'])} bucket messages were not queued")
    return len(buckets)


def read(body: str) -> Tuple[str, str]:
    """(bucket, now) of one message :func:`send` wrote."""
    message = json.loads(body)
    return message["bucket"], message["now"]
