"""Notification ids: the history row's sort-key suffix, base64url-encoded.

Opaque to clients, yet they locate the row with no index: marking one read is one
conditional UpdateItem on a key computed from the id."""
from __future__ import annotations

import base64
import binascii
from typing import Optional

from app.errors import Invalid


def notification_id(created_at: str, event_id: str) -> str:
    raw = f"{created_at}#{event_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def parse(notification: str) -> tuple:
    """(createdAt, eventId) inside an id, or Invalid."""
    decoded: Optional[str] = None
    try:
        decoded = base64.urlsafe_b64decode(notification + "=" * (-len(notification) % 4)).decode()
    except (binascii.Error, ValueError, UnicodeDecodeError):
        pass
    created_at, _, event_id = (decoded or "").partition("#")
    if not created_at.endswith("Z") or not event_id:
        raise Invalid("Not a notification id.", details={"ids": ["Unknown notification id."]})
    return created_at, event_id


def parse_or_none(notification: str) -> Optional[tuple]:
    """(createdAt, eventId) inside an id, or None when it is not one."""
    try:
        return parse(notification)
    except Invalid:
        return None
