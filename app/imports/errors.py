"""The import area's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Conflict


def import_gone() -> Conflict:
    """The flip found the group no longer IMPORTING (a failed or stuck import's sweep removed
    it meanwhile)."""
    return Conflict("The import's group is gone.", code="IMPORT_GONE")
