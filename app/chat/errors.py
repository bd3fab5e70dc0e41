"""The chat assistant's named errors (its own; app/errors.py holds the shared ones, the
credits' among them)."""
from __future__ import annotations

from app.errors import Conflict


def draft_changed() -> Conflict:
    """The open draft a reply revises changed (or was confirmed) while the worker drafted."""
    return Conflict("The draft changed meanwhile.", code="DRAFT_CHANGED")
