"""The users area's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Conflict


def provisioning_race() -> Conflict:
    return Conflict("Sign-in is being provisioned concurrently; try again.",
                    code="PROVISIONING_RACE")


def identity_linked(message: str = "That identity is linked to another account.") -> Conflict:
    """The identity (provider and subject) already points at an account."""
    return Conflict(message, code="IDENTITY_LINKED")
