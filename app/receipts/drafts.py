"""A scan's draft: an ExpenseInput of the group (stored and shown as the chat draft's shape,
the REST create body), paid by whoever asked for the scan, split EQUAL over the whole roster.

The scan is untrusted input (an OCR of a photo anyone could have taken): the body is built
here from its numbers alone and held to the same REST validation as a chat draft, or there
is no draft (the reply still shows what was read)."""
from __future__ import annotations

from typing import Optional

from app.errors import Invalid
from app.ledger.expense_input import TEXT_MAX, ExpenseInput
from app.chat import proposals
from app.groups.membership import roster
from app.core.clock import today

MAX_DESCRIPTION = TEXT_MAX["description"]


def build(group, payer_participant_id: str, result) -> Optional[ExpenseInput]:
    """The draft, judged as a chat draft is (proposals.validate_body: the ledger's build and
    this roster), or None when the scan found no usable total."""
    if result.total is None or int(result.total) <= 0:
        return None
    members = [p.ParticipantId for p in roster(group.GroupId) if not p.TransferTarget]
    if payer_participant_id not in members:
        return None
    total = int(result.total)
    name = (" ".join((result.merchant or "").split()) or "Receipt")[:MAX_DESCRIPTION]
    body = {"description": name, "date": result.date or today(),
            "payments": [{"participantId": payer_participant_id, "amount": total}],
            "items": [{"name": name, "amount": total, "splitMode": "EQUAL",
                       "splits": [{"participantId": pid, "value": 1} for pid in members]}]}
    if result.currency and result.currency != group.Currency:
        body["currency"] = result.currency  # kept in its own currency, as a chat draft
    try:
        return proposals.validate_body(body, set(members))
    except Invalid:
        return None
