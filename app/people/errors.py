"""The people area's named errors: handles, friends, direct invitations (its own;
app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Conflict, Invalid, RateLimited


def handle_taken() -> Conflict:
    return Conflict("That handle belongs to someone else.", code="HANDLE_TAKEN")


def handle_reserved() -> Invalid:
    return Invalid("That handle is reserved.", details={"handle": ["This handle is reserved."]})


def friend_request_pending() -> Conflict:
    return Conflict("A friend request between you is already pending.",
                    code="FRIEND_REQUEST_PENDING")


def already_friends() -> Conflict:
    return Conflict("You are already friends.", code="ALREADY_FRIENDS")


def not_yourself(field: str = "userId") -> Invalid:
    return Invalid("You cannot do this to yourself.", details={field: ["Must not be you."]})


def invitation_pending() -> Conflict:
    return Conflict("This user already has a pending invitation to the group.",
                    code="INVITATION_PENDING")


def invitation_expired() -> Conflict:
    return Conflict("The invitation has expired.", code="INVITATION_EXPIRED")


def invitation_changed() -> Conflict:
    """The invitation or its reserved guest slot changed; nothing was claimed."""
    return Conflict("The invitation or its reserved place in the group changed; "
                    "ask for a new invitation.", code="INVITATION_CHANGED")


def guest_unavailable() -> Conflict:
    return Conflict("That guest is claimed, reserved for someone else or being transferred.",
                    code="TARGET_NOT_GUEST")


def invitation_emails_limit(limit: int, retry_after: int) -> RateLimited:
    """The group's invitations by e-mail for today are used up (429, Retry-After: the next
    UTC day)."""
    return RateLimited(f"A group sends at most {limit} invitations by e-mail a day; try "
                       "again tomorrow.", retry_after=retry_after,
                       details={"limit": limit, "retryAfter": retry_after})
