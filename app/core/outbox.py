"""Outbox EVENT rows: added to the same TransactWrite as the change they describe.

Event ids are ``<type>#<groupId-or-actorUserId>#<resourceId>[#<revision>]`` and created under
attribute_not_exists, so a retried write can never produce a second event while the first is
pending. Dispatch deletes the row (models.notifications.Event); after that, a replay is
refused by the change's own condition (the revision, the row it creates or the marker it
puts), which every writer here has, and a redelivered event finds its history rows there. Event types: the
Event model's ``EVENT_TYPES`` (one list, behind the API enum too), and ``MAIL_EVENT_TYPES``
(an e-mail to an address, not a user's notification); no other is written."""
from __future__ import annotations

from typing import Any, Mapping, Optional

from app.errors import duplicate_event
from app.core.clock import epoch, now_iso
from app.core.transactions import Transaction
from models.notifications import EVENT_TYPES, MAIL_EVENT_TYPES, Event

# An event no attempt ever dispatches (a poison row) goes with TTL after this.
EVENT_RETENTION_SECONDS = 30 * 24 * 3600


def add_event(tx: Transaction, event_type: str, *, scope_id: str, resource_id: str,
              actor_user_id: str, group_id: Optional[str] = None,
              revision: Optional[object] = None,
              payload: Optional[Mapping[str, Any]] = None,
              recipients: Optional[set] = None) -> str:
    """Add one EVENT row to ``tx``; returns its event id."""
    if event_type not in EVENT_TYPES and event_type not in MAIL_EVENT_TYPES:
        raise ValueError(f"unknown event type {event_type}")
    event_id = Event.event_id(event_type, scope_id, resource_id, revision)
    row = Event(*Event.key(event_id), EventId=event_id, Type=event_type, GroupId=group_id,
                ActorUserId=actor_user_id, ResourceId=resource_id, CreatedAt=now_iso(),
                ExpiresAt=epoch() + EVENT_RETENTION_SECONDS,
                Payload=dict(payload or {}) or None, Recipients=recipients or None)
    # Secondary: the id is derived from the revision, so when the change itself also failed
    # (a concurrent writer produced this revision first) that failure is the true answer.
    tx.put(row, condition=Event.PK.does_not_exist(),
           on_fail=duplicate_event(),
           secondary=True)
    return event_id
