"""The groups area's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Conflict


def participant_referenced() -> Conflict:
    return Conflict("Expenses, settlements, conversions or recurring expenses name this "
                    "participant, or it holds a balance; transfer or remove them first.",
                    code="PARTICIPANT_REFERENCED")
