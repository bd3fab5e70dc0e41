"""Notifications: devices, preferences, history, and the EVENT outbox the stream worker fans out."""
from __future__ import annotations

import hashlib
from typing import Iterator, Optional

from pynamodb.attributes import (DiscriminatorAttribute, MapAttribute,
                                 NumberAttribute, UnicodeAttribute, UnicodeSetAttribute)
from pynamodb.models import Model

from models.base import RawAccess, table

USER_PREFIX = "USER#"
DEVICE_PREFIX = "DEVICE#"
PREFS = "PREFS"
NOTIF_PREFIX = "NOTIF#"
EVENT_PREFIX = "EVENT#"
SUPPRESSED_PREFIX = "SUPPRESSED#"
PENDING = "PENDING"
# Outbox rows live in PENDING_SHARDS partitions ("PENDING#<n>", by a stable hash of the event
# id) until dispatch deletes them, so the sweep finds every undispatched event with one Query
# per shard and no index (an index cost two GSI writes per event: its key set, then removed).
# Sharded: one fixed partition would take every event of the platform (a throttle there fails
# the money transaction that writes the event).
PENDING_SHARDS = 16
TOKEN_PREFIX = "TOKEN#"
TOKEN_SK = "TOKEN"
SWEEP_PK = "SWEEP"
DIGEST_PREFIX = "DIGEST#"
# Who takes a digest, by period: "DIGEST#<DAILY|WEEKLY>#<n>" partitions (a stable hash of the
# user id), each row one subscriber, written with the preference that asks for it. The run
# Queries these instead of scanning the table for PREFS rows; sharded so no one partition
# holds a period's every subscriber.
DIGEST_SHARDS = 8
DIGEST_PERIODS = ("DAILY", "WEEKLY")
# Every outbox event type, defined once: the outbox refuses any other, the stream worker
# renders these, and the API documents them (notification ``type`` and the preference
# switches). Adding one here adds it everywhere.
EVENT_TYPES = ("EXPENSE_ADDED", "EXPENSE_UPDATED", "EXPENSE_DELETED", "COMMENT_ADDED", "MENTION",
               "SETTLEMENT_ADDED", "JOIN_REQUEST_SUBMITTED", "JOIN_REQUEST_DECIDED",
               "GROUP_INVITATION", "FRIEND_REQUEST", "FRIEND_ACCEPTED", "RECURRING_CREATED",
               "RECURRING_REMINDER", "REMINDER")
# Outbox events that go to an e-mail address rather than to a user: no history row, no
# preference switch (not API types); the worker sends each as one e-mail
# (app.notifications.invitation_mail).
EMAIL_INVITATION = "EMAIL_INVITATION"
MAIL_EVENT_TYPES = (EMAIL_INVITATION,)


@table("notifications")
class NotificationItem(RawAccess, Model):
    """Every Notifications row."""

    class Meta:
        table_name = "notifications"

    PK = UnicodeAttribute(hash_key=True)
    SK = UnicodeAttribute(range_key=True)
    EntityType = DiscriminatorAttribute()
    CreatedAt = UnicodeAttribute(null=True)
    ExpiresAt = NumberAttribute(null=True)  # TTL (unix seconds); reads check it too


class Device(NotificationItem, discriminator="DEVICE"):
    """A push endpoint of one user (a native push token or a Web Push subscription JSON)."""

    DeviceId = UnicodeAttribute()
    Platform = UnicodeAttribute()
    Token = UnicodeAttribute()
    EndpointArn = UnicodeAttribute(null=True)  # SNS platform endpoint, created on first push
    LastSeenAt = UnicodeAttribute(null=True)

    @staticmethod
    def key(user_id: str, device_id: str) -> tuple:
        return USER_PREFIX + user_id, DEVICE_PREFIX + device_id

    @classmethod
    def of_user(cls, user_id: str, **kwargs) -> Iterator["Device"]:
        return cls.query(USER_PREFIX + user_id, cls.SK.startswith(DEVICE_PREFIX), **kwargs)


class DeviceToken(NotificationItem, discriminator="DEVICE_TOKEN"):
    """Who holds a push token now: one device row per token, whoever registered it last."""

    UserId = UnicodeAttribute()
    DeviceId = UnicodeAttribute()

    @staticmethod
    def key(token: str) -> tuple:
        return TOKEN_PREFIX + hashlib.sha256(token.encode()).hexdigest(), TOKEN_SK


class Preferences(NotificationItem, discriminator="PREFS"):
    """Muted groups (a string set changed with atomic ADD/DELETE) and per-type switches."""

    MutedGroupIds = UnicodeSetAttribute(null=True)
    Types = MapAttribute(null=True)  # per type: the push channel (absent: on)
    # The types whose e-mail channel is on (absent: none). A set changed by atomic ADD/DELETE
    # of names, so an unsubscribe and a PATCH never overwrite each other's switch.
    EmailOn = UnicodeSetAttribute(null=True)
    Digest = UnicodeAttribute(null=True)  # DAILY | WEEKLY (absent: NONE)
    ReadAllBefore = UnicodeAttribute(null=True)  # "mark all read": one write, not one per row

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
    EventId = UnicodeAttribute(null=True)

    @staticmethod
    def key(user_id: str, created_at: str, event_id: str) -> tuple:
        """Deterministic from the event, so a replayed event finds its row already there."""
        return USER_PREFIX + user_id, Notification.sort_key(created_at, event_id)

    @staticmethod
    def sort_key(created_at: str, event_id: str) -> str:
        return f"{NOTIF_PREFIX}{created_at}#{event_id}"

    @classmethod
    def history(cls, user_id: str, **kwargs) -> Iterator["Notification"]:
        return cls.query(USER_PREFIX + user_id, cls.SK.startswith(NOTIF_PREFIX),
                         scan_index_forward=False, **kwargs)

    @classmethod
    def created_between(cls, user_id: str, start: str, end: str) -> Iterator["Notification"]:
        """A user's history rows created at or after ``start`` and before ``end`` (ISO
        instants), oldest first: one Query."""
        rows = cls.query(USER_PREFIX + user_id,
                         cls.SK.between(NOTIF_PREFIX + start, NOTIF_PREFIX + end))
        return (row for row in rows if row.CreatedAt < end)

    @classmethod
    def count_after(cls, user_id: str, after: Optional[str], **kwargs) -> int:
        """How many of a user's history rows were created after ``after`` (None: all of them).

        "$" sorts after "#", so the range starts past every row created at ``after`` and
        ends past the last NOTIF# row."""
        start = NOTIF_PREFIX + (after + "$" if after else "")
        return cls.count(USER_PREFIX + user_id, cls.SK.between(start, NOTIF_PREFIX[:-1] + "$"),
                         **kwargs)


class Event(NotificationItem, discriminator="EVENT"):
    """An outbox row, written in the same transaction as the change it describes and deleted
    once dispatched: what is left in the PENDING shards is what the sweep must deliver."""

    EventId = UnicodeAttribute()
    Type = UnicodeAttribute()
    GroupId = UnicodeAttribute(null=True)
    ActorUserId = UnicodeAttribute()
    ResourceId = UnicodeAttribute()
    Payload = MapAttribute(null=True)
    Recipients = UnicodeSetAttribute(null=True)
    # Recipients whose e-mail the dispatch had no time left to send (their history row is
    # written): the event stays in the outbox and the sweep's dispatch sends just these.
    MailPending = UnicodeSetAttribute(null=True)

    @staticmethod
    def event_id(event_type: str, scope_id: str, resource_id: str,
                 revision: Optional[object] = None) -> str:
        """``<type>#<groupId-or-actorUserId>#<resourceId>[#<revision>]``."""
        base = f"{event_type}#{scope_id}#{resource_id}"
        return base if revision is None else f"{base}#{revision}"

    @staticmethod
    def key(event_id: str) -> tuple:
        """``PENDING#<0..15>`` by a stable hash of the event id (the same shard on every
        retry, so the row's attribute_not_exists still refuses a second event), ``EVENT#<id>``."""
        digest = hashlib.sha256(event_id.encode()).digest()
        shard = int.from_bytes(digest[:4], "big") % PENDING_SHARDS
        return f"{PENDING}#{shard}", EVENT_PREFIX + event_id

    @staticmethod
    def shards() -> list:
        return [f"{PENDING}#{shard}" for shard in range(PENDING_SHARDS)]

    @classmethod
    def pending(cls, shard: str, created_before: str, **kwargs) -> Iterator["Event"]:
        """Undispatched events of one shard created before ``created_before`` (in event-id
        order; a Query of the shard, so it reads only what is still pending)."""
        return cls.query(shard, cls.SK.startswith(EVENT_PREFIX),
                         filter_condition=cls.CreatedAt < created_before, **kwargs)


class SweepCursor(NotificationItem, discriminator="SWEEP_CURSOR"):
    """Where a bounded maintenance sweep stopped, so the next run resumes there."""

    Position = UnicodeAttribute(null=True)  # JSON of the LastEvaluatedKey; absent: from the start

    @staticmethod
    def key(sweep: str) -> tuple:
        return SWEEP_PK, sweep


class MailSuppression(NotificationItem, discriminator="SUPPRESSED"):
    """An address that asked for no more e-mail of one kind (an invitation's one-click
    unsubscribe). Keyed by the SHA-256 of the normalised address, never the address itself:
    an invitation's address belongs to no account, so nothing else here may hold it."""

    CreatedAt = UnicodeAttribute()

    @staticmethod
    def key(address_hash: str, kind: str) -> tuple:
        return SUPPRESSED_PREFIX + address_hash, kind


class DigestSubscriber(NotificationItem, discriminator="DIGEST_SUBSCRIBER"):
    """One user who asked for one period's digest (written and removed in the same
    TransactWrite as the preference)."""

    UserId = UnicodeAttribute()

    @staticmethod
    def key(period: str, user_id: str) -> tuple:
        digest = hashlib.sha256(user_id.encode()).digest()
        shard = int.from_bytes(digest[:4], "big") % DIGEST_SHARDS
        return f"{DIGEST_PREFIX}{period}#{shard}", USER_PREFIX + user_id

    @staticmethod
    def shards(period: str) -> list:
        return [f"{DIGEST_PREFIX}{period}#{shard}" for shard in range(DIGEST_SHARDS)]


class DigestSent(NotificationItem, discriminator="DIGEST_SENT"):
    """One user's digest of one period is taken care of: created under attribute_not_exists
    before anything is read or sent, so a retried or doubled run sends once. In the user's
    own partition (an account deletion sweeps it with the rest); expires by TTL."""

    Period = UnicodeAttribute()

    @staticmethod
    def key(user_id: str, period_key: str) -> tuple:
        return USER_PREFIX + user_id, DIGEST_PREFIX + period_key

    @staticmethod
    def period_key(kind: str, first_day) -> str:
        """``DAILY#2026-12-04`` (a day), ``WEEKLY#2026-W49`` (an ISO week, by its Monday)."""
        if kind == "DAILY":
            return f"{kind}#{first_day.isoformat()}"
        year, week, _ = first_day.isocalendar()
        return f"{kind}#{year}-W{week:02d}"
