"""Stream records of the notifications table, read as the outbox rows they carry."""
from __future__ import annotations

from app.logs import logger
from models.notifications import Event, NotificationItem


def handle_stream_record(record: dict) -> None:
    """Take one DynamoDB stream record (the filter admits only inserted EVENT rows)."""
    event = NotificationItem.from_raw_data(record["dynamodb"]["NewImage"])
    if not isinstance(event, Event):  # the filter should prevent this; never drop it silently
        raise ValueError("stream record is not an outbox EVENT row")
    logger.info("notification_event", extra={"event_id": getattr(event, "EventId", None),
                                              "type": getattr(event, "Type", None)})
