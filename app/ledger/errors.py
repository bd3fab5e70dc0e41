"""The ledger's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from app.errors import Conflict, Invalid

if TYPE_CHECKING:
    from app.core.access import Access


class GroupChanged(Conflict):
    """The group head no longer matches what the write assumed (deleted, re-currencied or,
    for a write naming ``participant_ids``, its roster changed)."""

    code = "GROUP_CHANGED"

    def __init__(self, message: str, participant_ids: Optional[tuple] = None,
                 writer: Optional[Access] = None) -> None:
        super().__init__(message)
        self.participant_ids = participant_ids  # None: the write names no one
        self.writer = writer  # the caller whose role the roster read vouched for


def currency_changed() -> Conflict:
    return Conflict("The group currency changed; reload and try again.", code="CURRENCY_CHANGED")


def rate_outlier(rate: str, reference: str, used: str, factor: int) -> Invalid:
    """A client rate ``factor`` times off the day's reference: a typo until confirmed."""
    return Invalid(f"exchangeRate {rate} is more than {factor}x away from the ECB reference "
                   f"{reference} of {used}; send \"confirmOutlier\": true if it is right.",
                   code="RATE_OUTLIER",
                   details={"exchangeRate": [f"More than {factor}x away from {reference}."],
                            "confirmOutlier": ["Send true to keep this rate."]})


def database_busy() -> Conflict:
    """A batch delete left items unprocessed through its retries; the delete may be rerun."""
    return Conflict("The database is busy; try the delete again.", code="TRY_AGAIN")


def participant_gone(participant_id: str) -> Conflict:
    """A trashed row names a participant removed since: it cannot come back as it was."""
    return Conflict("A participant this names is no longer in the group.",
                    code="PARTICIPANT_GONE", details={"participantId": participant_id})
