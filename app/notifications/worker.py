"""The NotificationWorker's one message: a stream record of the notifications table, read as
the outbox row it carries and dispatched."""
from __future__ import annotations

from app.logs import logger
from app.notifications.dispatch import already_dispatched, dispatch
from models.notifications import Event, NotificationItem

REQUIRED = ("EventId", "Type", "ActorUserId", "CreatedAt")


def _outbox_event(record: dict) -> Event:
    """The EVENT a record carries, or ValueError (a poison record fails alone, never dropped)."""
    event = NotificationItem.from_raw_data(record["dynamodb"]["NewImage"])
    if not isinstance(event, Event):  # the filter should prevent this; never drop it silently
        raise ValueError("stream record is not an outbox EVENT row")
    missing = [name for name in REQUIRED if not getattr(event, name, None)]
    if missing:
        raise ValueError(f"outbox EVENT row lacks {', '.join(missing)}")
    return event


def handle(record: dict) -> None:
    """Take one DynamoDB stream record (the filter admits only inserted EVENT rows)."""
    event = _outbox_event(record)
    if already_dispatched(event):  # a redelivered batch, or the sweep got there first
        logger.info("notification.already_dispatched", extra={"event_id": event.EventId})
        return
    dispatch(event)
