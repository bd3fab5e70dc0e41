"""A scan's draft: an ExpenseInput of the group (stored and shown as the REST create body),
paid by whoever asked for the scan, split EQUAL over the whole roster.

The scan is untrusted input (an OCR of a photo anyone could have taken): the input is built
here from its numbers alone, names only this roster and keeps to the REST text limits by
construction, and the ledger's build judges its money as it judges any create; a draft the
ledger would refuse is no draft (the reply still shows what was read)."""
from __future__ import annotations

from typing import Optional

from app.errors import Invalid
from app.ledger.expense_input import TEXT_MAX, ExpenseInput, ItemInput, PaymentInput, SplitInput
from app.groups.membership import roster
from app.ledger import expense_build
from app.core.clock import today

MAX_DESCRIPTION = TEXT_MAX["description"]


def build(group, payer_participant_id: str, result) -> Optional[ExpenseInput]:
    """The draft, as the ledger's build accepts it, or None when the scan found no usable
    total (or the ledger would refuse what it found)."""
    if result.total is None or int(result.total) <= 0:
        return None
    members = [p.ParticipantId for p in roster(group.GroupId) if not p.TransferTarget]
    if payer_participant_id not in members:
        return None
    total = int(result.total)
    name = (" ".join((result.merchant or "").split()) or "Receipt")[:MAX_DESCRIPTION]
    draft = ExpenseInput(
        description=name, date=result.date or today(),
        payments=(PaymentInput(payer_participant_id, total),),
        items=(ItemInput(name, total, "EQUAL", tuple(SplitInput(pid, 1) for pid in members)),),
        # Kept in its own currency, as a chat draft, when it is not the group's.
        currency=result.currency if result.currency and result.currency != group.Currency
        else None)
    try:
        expense_build.build(draft)
    except Invalid:
        return None
    return draft
