"""The recurring area's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Conflict


class AlreadyRecorded(Conflict):
    """The occurrence's expense exists: an earlier tick recorded this slot."""

    code = "ALREADY_RECORDED"


class TemplateChanged(Conflict):
    """The template was deleted, or re-claimed after this tick's lease lapsed."""

    code = "TEMPLATE_CHANGED"


def already_recorded() -> AlreadyRecorded:
    return AlreadyRecorded("This occurrence is already recorded.")


def template_changed_during_claim() -> TemplateChanged:
    return TemplateChanged("The template changed during the claim.")
