"""A user's notification history: newest first, unread count, mark read.

"Mark all read" is one write (ReadAllBefore on the PREFS row), not one per row: a row counts
as read when it has ReadAt or was created at or before that watermark. Expired rows (past
ExpiresAt, awaiting TTL deletion) are hidden from every read."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional

from app.core import paging
from app.core.clock import epoch, now_iso
from app.notifications.ids import notification_id, parse_or_none
from app.core.conditional import update_if
from app.core.transactions import Transaction
from models.notifications import Notification, NotificationItem, Preferences

MAX_IDS = 100


def _watermark(user_id: str) -> Optional[str]:
    prefs = Preferences.from_raw(NotificationItem.raw_get(*Preferences.key(user_id)))
    return prefs.ReadAllBefore if prefs is not None else None


@dataclass(frozen=True)
class Entry:
    """A history row with its id and when it counts as read (its own ReadAt, or the PREFS
    row's mark-all watermark). Attribute reads fall through to the row, which the
    notification reply schema dumps."""

    row: Notification
    notification_id: str
    read_at: Optional[str]

    def __getattr__(self, name: str):
        return getattr(self.row, name)


def _entry(row: Notification, watermark: Optional[str]) -> Entry:
    read_at = row.ReadAt or (watermark if watermark and row.CreatedAt <= watermark else None)
    return Entry(row, row.NotificationId or notification_id(row.CreatedAt, row.EventId), read_at)


def unread_count(user_id: str, watermark: Optional[str]) -> int:
    """Rows after the watermark without ReadAt and not expired (reads only those rows)."""
    return Notification.count_after(
        user_id, watermark,
        filter_condition=Notification.ReadAt.does_not_exist() & (Notification.ExpiresAt > epoch()))


def list_history(user_id: str, *, limit: Optional[int], cursor: Optional[str], scope: str) -> dict:
    watermark = _watermark(user_id)
    rows = Notification.history(user_id, limit=paging.clamp_limit(limit),
                                last_evaluated_key=paging.decode(cursor, scope),
                                filter_condition=Notification.ExpiresAt > epoch())
    page = paging.page_of(rows, scope, lambda row: _entry(row, watermark))
    return {**page.as_dict(), "unreadCount": unread_count(user_id, watermark)}


def mark_read(user_id: str, *, ids: Optional[Iterable[str]] = None, everything: bool = False) -> dict:
    """Mark the named rows (unknown or already-read ids are skipped) or everything read."""
    now = now_iso()
    if everything:
        # The PREFS row is created here if absent: only while the account is live.
        (Transaction().require_live_account(user_id)
         .update(Preferences(*Preferences.key(user_id)), [
             Preferences.EntityType.set(Preferences), Preferences.ReadAllBefore.set(now)])
         .commit())
        return {"unreadCount": unread_count(user_id, now)}
    # An id that does not even parse names no notification of the caller: skipped like one
    # that names someone else's.
    for created_at, event_id in dict.fromkeys(filter(None, map(parse_or_none, ids or ()))):
        update_if(Notification(*Notification.key(user_id, created_at, event_id)),
                  [Notification.ReadAt.set(now)],
                  Notification.PK.exists() & Notification.ReadAt.does_not_exist())
    return {"unreadCount": unread_count(user_id, _watermark(user_id))}
