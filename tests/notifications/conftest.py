"""Fixtures for notifications: a recording push provider and a stand-in for the stream.

``deliver()`` turns every EVENT row still in the outbox index into a DynamoDB stream record
(the row's own item as NewImage, as the stream carries it) and feeds the batch to the real
Lambda handler, exactly as the event source mapping would."""
from __future__ import annotations

import pytest

from app.notifications import push
from models.notifications import Event, NotificationItem
from tests.support.lambda_context import lambda_context


@pytest.fixture
def recorder():
    previous = push._current.get("provider")
    provider = push.use(push.RecordingProvider())
    yield provider
    if previous is None:
        push._current.pop("provider", None)
    else:
        push.use(previous)


def pending_records() -> list:
    records = []
    for shard in Event.shards():
        for event in Event.pending(shard, "9999"):
            raw = NotificationItem.raw_get(*Event.key(event.EventId))
            records.append(stream_record(raw, len(records)))
    return records


def stream_record(new_image: dict, sequence: int) -> dict:
    return {"eventID": f"{sequence:032d}", "eventName": "INSERT", "eventVersion": "1.1",
            "eventSource": "aws:dynamodb", "awsRegion": "us-east-1",
            "dynamodb": {"Keys": {"PK": new_image["PK"], "SK": new_image["SK"]},
                         "NewImage": new_image, "SequenceNumber": str(10 ** 20 + sequence),
                         "SizeBytes": 100, "StreamViewType": "NEW_IMAGE"},
            "eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/t/stream/x"}


def run_worker(records: list) -> list:
    """Feed a batch to the Lambda handler; returns the failed sequence numbers."""
    from app.handlers import notifications
    result = notifications.lambda_handler({"Records": records}, lambda_context())
    return [failure["itemIdentifier"] for failure in result["batchItemFailures"]]


@pytest.fixture
def deliver(recorder):
    def _deliver() -> list:
        records = pending_records()
        assert run_worker(records) == []
        return records
    return _deliver
