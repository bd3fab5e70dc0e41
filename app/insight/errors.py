"""The insight area's named errors: reminders (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Conflict, RateLimited


REMINDED_OWES_NOTHING = ("This participant owes you nothing in the group's settle-up plan (or "
                         "is a guest, who can't be reminded).")
NOTHING_BETWEEN_US = ("Nothing is owed in that direction between you in that currency in any "
                      "group you share.")


def nothing_owed(message: str = REMINDED_OWES_NOTHING) -> Conflict:
    """A reminder's target is a guest or pays the caller nothing in the group's settle-up
    plan; or (NOTHING_BETWEEN_US) no shared group's plan has a transfer to settle."""
    return Conflict(message, code="NOTHING_OWED")


def too_many_groups(count: int, limit: int) -> Conflict:
    return Conflict(f"Settling would write to {count} groups; one payment settles at most "
                    f"{limit}. Settle some groups one by one first.", code="TOO_MANY_GROUPS",
                    details={"groups": count, "limit": limit})


def reminder_too_soon(retry_after: int) -> RateLimited:
    return RateLimited("You reminded this person in this group less than 24 hours ago.",
                       code="REMINDER_TOO_SOON", retry_after=max(1, retry_after))
