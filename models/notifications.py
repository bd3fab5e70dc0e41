"""Notifications: devices, preferences, history, and the EVENT outbox the stream worker fans out."""
from __future__ import annotations

from typing import Iterator, Optional

from pynamodb.attributes import (DiscriminatorAttribute, MapAttribute,
                                 NumberAttribute, UnicodeAttribute, UnicodeSetAttribute)
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model

from models.base import table

USER_PREFIX = "USER#"
DEVICE_PREFIX = "DEVICE#"
PREFS = "PREFS"
NOTIF_PREFIX = "NOTIF#"
EVENT_PREFIX = "EVENT#"
EVENT_SK = "EVENT"
PENDING = "PENDING"


class PendingEventsIndex(GlobalSecondaryIndex):
    """Outbox events not yet dispatched, oldest first (sparse on PendingKey)."""

    class Meta:
        index_name = "PendingEventsIndex"
        projection = AllProjection()

    PendingKey = UnicodeAttribute(hash_key=True)
    CreatedAt = UnicodeAttribute(range_key=True)


@table("notifications")
class NotificationItem(Model):
    """Every Notifications row."""

    class Meta:
        table_name = "notifications"

    PK = UnicodeAttribute(hash_key=True)
    SK = UnicodeAttribute(range_key=True)
    EntityType = DiscriminatorAttribute()
    CreatedAt = UnicodeAttribute(null=True)
    PendingKey = UnicodeAttribute(null=True)
    ExpiresAt = NumberAttribute(null=True)  # TTL (unix seconds); reads check it too

    pending_events = PendingEventsIndex()


class Device(NotificationItem, discriminator="DEVICE"):
    """A push endpoint of one user."""

    DeviceId = UnicodeAttribute()
    Platform = UnicodeAttribute()
    Token = UnicodeAttribute()

    @staticmethod
    def key(user_id: str, device_id: str) -> tuple:
        return USER_PREFIX + user_id, DEVICE_PREFIX + device_id


class Preferences(NotificationItem, discriminator="PREFS"):
    """Muted groups (a string set changed with atomic ADD/DELETE) and per-type switches."""

    MutedGroupIds = UnicodeSetAttribute(null=True)
    Types = MapAttribute(null=True)

    @staticmethod
    def key(user_id: str) -> tuple:
        return USER_PREFIX + user_id, PREFS


class Notification(NotificationItem, discriminator="NOTIF"):
    """One entry of a user's notification history."""

    NotificationId = UnicodeAttribute()
    Type = UnicodeAttribute()
    Title = UnicodeAttribute()
    Body = UnicodeAttribute()
    GroupId = UnicodeAttribute(null=True)
    ResourceId = UnicodeAttribute(null=True)
    ReadAt = UnicodeAttribute(null=True)

    @staticmethod
    def key(user_id: str, created_at: str, event_id: str) -> tuple:
        return USER_PREFIX + user_id, f"{NOTIF_PREFIX}{created_at}#{event_id}"

    @classmethod
    def history(cls, user_id: str, **kwargs) -> Iterator["Notification"]:
        return cls.query(USER_PREFIX + user_id, cls.SK.startswith(NOTIF_PREFIX),
                         scan_index_forward=False, **kwargs)


class Event(NotificationItem, discriminator="EVENT"):
    """An outbox row, written in the same transaction as the change it describes."""

    EventId = UnicodeAttribute()
    Type = UnicodeAttribute()
    GroupId = UnicodeAttribute(null=True)
    ActorUserId = UnicodeAttribute()
    ResourceId = UnicodeAttribute()
    Payload = MapAttribute(null=True)
    Recipients = UnicodeSetAttribute(null=True)
    DispatchedAt = UnicodeAttribute(null=True)

    @staticmethod
    def event_id(event_type: str, scope_id: str, resource_id: str,
                 revision: Optional[object] = None) -> str:
        """``<type>#<groupId-or-actorUserId>#<resourceId>[#<revision>]``."""
        base = f"{event_type}#{scope_id}#{resource_id}"
        return base if revision is None else f"{base}#{revision}"

    @staticmethod
    def key(event_id: str) -> tuple:
        return EVENT_PREFIX + event_id, EVENT_SK

    @classmethod
    def pending(cls, **kwargs) -> Iterator["Event"]:
        return cls.pending_events.query(PENDING, **kwargs)
