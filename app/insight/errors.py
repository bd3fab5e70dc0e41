"""The insight area's named errors: reminders (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Conflict, RateLimited


def nothing_owed() -> Conflict:
    """The target is a guest, or pays the caller nothing in the group's settle-up plan."""
    return Conflict("This participant owes you nothing in the group's settle-up plan (or is "
                    "a guest, who can't be reminded).", code="NOTHING_OWED")


def reminder_too_soon(retry_after: int) -> RateLimited:
    return RateLimited("You reminded this person in this group less than 24 hours ago.",
                       code="REMINDER_TOO_SOON", retry_after=max(1, retry_after))
