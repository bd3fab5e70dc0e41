"""The groups area's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Conflict, Forbidden, NotFound, concurrent_update


def participant_referenced() -> Conflict:
    return Conflict("Expenses, settlements, conversions or recurring expenses name this "
                    "participant, or it holds a balance; transfer or remove them first.",
                    code="PARTICIPANT_REFERENCED")


class LastOwner(Conflict):
    code = "LAST_OWNER"


class NotPending(Conflict):
    code = "NOT_PENDING"


def invite_not_found() -> NotFound:
    return NotFound("No invite with this code.")


def participant_changed() -> Conflict:
    return concurrent_update("The participant changed meanwhile; reload and try again.")


def last_owner() -> Conflict:
    return LastOwner("A group needs at least one owner; make someone else an owner first.")


def currency_locked() -> Conflict:
    return Conflict("The currency is fixed once the group has an expense or settlement.",
                    code="CURRENCY_LOCKED")


def transfer_in_progress(message: str = "This participant is being transferred; "
                                        "let the transfer finish.") -> Conflict:
    """A participant transfer holds the participant (as its source or its target)."""
    return Conflict(message, code="TRANSFER_IN_PROGRESS")


def request_pending() -> Conflict:
    return Conflict("A request to join this group is already pending; cancel it first.",
                    code="REQUEST_PENDING")


def not_pending() -> Conflict:
    return NotPending("The request is no longer pending.")


def group_full(limit: int) -> Conflict:
    return Conflict(f"A group holds at most {limit} participants; remove someone first.",
                    code="GROUP_FULL", details={"maxParticipants": limit})


def needs_owner() -> Forbidden:
    return Forbidden("This needs the OWNER role in the group.")
