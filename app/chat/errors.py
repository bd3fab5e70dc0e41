"""The chat assistant's named errors (its own; app/errors.py holds the shared ones, and
app/credits/errors.py the credits')."""
from __future__ import annotations

from typing import Optional

from app.errors import Conflict


def draft_changed() -> Conflict:
    """The open draft a reply revises changed (or was confirmed) while the worker drafted."""
    return Conflict("The draft changed meanwhile.", code="DRAFT_CHANGED")


def draft_confirmed(expense_id: Optional[str] = None) -> Conflict:
    """The draft was saved already: a replay never creates a second expense."""
    details = {"expenseId": expense_id} if expense_id else None
    return Conflict("This draft was already confirmed.", code="DRAFT_CONFIRMED",
                    details=details)


def draft_discarded() -> Conflict:
    return Conflict("This draft was discarded.", code="DRAFT_DISCARDED")


def chat_session_full(limit: int) -> Conflict:
    return Conflict(f"A chat session holds at most {limit} messages; start a new one.",
                    code="CHAT_SESSION_FULL", details={"limit": limit})
