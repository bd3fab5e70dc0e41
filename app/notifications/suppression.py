"""Addresses that asked for no more invitations (an invitation e-mail's one-click
unsubscribe). An invitation goes to an address with no account of ours to hold a preference,
so the address itself is the key: the SHA-256 of its normalised spelling, never the address
in clear. Unsalted on purpose: the key must stay the same across key rotations, or an
unsubscribe would silently lapse."""
from __future__ import annotations

import hashlib

from app.core.clock import now_iso
from models.notifications import MailSuppression, NotificationItem

INVITATIONS = "INVITATIONS"


def address_hash(address: str) -> str:
    """The key of an address: trimmed, lowercase (app.people.email_invitations.normalise),
    hashed."""
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()


def suppress(hashed: str, kind: str = INVITATIONS) -> None:
    """Idempotent: a second unsubscribe rewrites the same row."""
    MailSuppression(*MailSuppression.key(hashed, kind), CreatedAt=now_iso()).save()


def suppressed(hashed: str, kind: str = INVITATIONS) -> bool:
    return NotificationItem.raw_get(*MailSuppression.key(hashed, kind)) is not None
