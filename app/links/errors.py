"""The share links' named errors (codes and messages written once here)."""
from __future__ import annotations

from app.errors import Conflict, Invalid, NotFound, RateLimited, Unauthenticated


def link_not_found() -> NotFound:
    """A wrong, revoked or expired token: one answer, so none of them leaks which it was."""
    return NotFound("No such share link (it may have been revoked or have expired).")


def pin_invalid() -> Unauthenticated:
    return Unauthenticated("That PIN is not right.", code="PIN_INVALID")


def link_locked(retry_after: int) -> RateLimited:
    return RateLimited("Too many wrong PINs: this link is locked for a while.",
                       code="LINK_LOCKED", retry_after=retry_after)


def link_limit(limit: int) -> Conflict:
    return Conflict(f"A group has at most {limit} live share links; revoke one first.",
                    code="LINK_LIMIT", details={"limit": limit})


def bad_participant(message: str) -> Invalid:
    return Invalid(message, details={"participantId": [message]})
