"""A scan's draft: an ExpenseInput of the group (stored and shown as the REST create body)
plus the receipt's extras, paid by whoever asked for the scan.

Each priced line of the receipt is an item split EQUAL over the whole roster until a person
assigns it; its tax, tip, service and discount lines are the draft's ``extras``
(app.receipts.extras), shared over the items in proportion when the draft is confirmed.
When the lines and extras do not add up to the total, what is left over is one more item
("Other items"); when they add up to more, or there are no lines, the draft is one item of
the whole total (the lines stay in the scan for a person to read). A receipt that prints no
currency is read in the group's, and the draft's notes say so.

The scan is untrusted input (an OCR of a photo anyone could have taken): the input is built
here from its numbers alone, names only this roster and keeps to the REST text and item
limits by construction, and the ledger's build judges its money (extras folded) as it
judges any create; a draft the ledger would refuse is no draft (the reply still shows what
was read)."""
from __future__ import annotations

from typing import List, Optional, Tuple

from app.errors import Invalid
from app.core.clock import today
from app.groups.membership import roster
from app.ledger import expense_build
from app.ledger.expense_input import (ITEM_NAME_MAX, TEXT_MAX, ExpenseInput, ItemInput,
                                      PaymentInput, SplitInput)
from app.limits import MAX_EXPENSE_ITEMS as MAX_DRAFT_ITEMS
from app.receipts import extras as receipt_extras
from app.receipts.draft_input import Draft, Extra

MAX_DESCRIPTION = TEXT_MAX["description"]
OTHER_ITEMS = "Other items"


def _lines(result, total: int) -> Tuple[List[Tuple[str, int]], Tuple[Extra, ...]]:
    """(item lines, extras) that add up to the total, or ([], ()) when they cannot."""
    lines = [(" ".join(str(name).split())[:ITEM_NAME_MAX], int(amount))
             for name, amount in result.items if int(amount) > 0 and str(name).strip()]
    extras = tuple(Extra(" ".join(str(name).split())[:ITEM_NAME_MAX] or kind.title(),
                         int(amount)) for name, amount, kind in result.extras)
    if len(lines) > MAX_DRAFT_ITEMS:
        kept = lines[:MAX_DRAFT_ITEMS - 1]
        lines = kept + [(OTHER_ITEMS, sum(a for _, a in lines[len(kept):]))]
    rest = total - sum(a for _, a in lines) - sum(e.amount for e in extras)
    if not lines or rest < 0 or (rest > 0 and len(lines) >= MAX_DRAFT_ITEMS):
        return [], ()
    return lines + ([(OTHER_ITEMS, rest)] if rest else []), extras


def _notes(result, group) -> Optional[str]:
    if getattr(result, "currency_printed", True):
        return None
    return (f"The receipt prints no currency: read as {group.Currency}, the group's. "
            "Change the currency if it was another.")


def build(group, payer_participant_id: str, result) -> Optional[Draft]:
    """The draft, as the ledger's build accepts it once its extras are folded in, or None
    when the scan found no usable total (or the ledger would refuse what it found)."""
    if result.total is None or int(result.total) <= 0:
        return None
    members = [p.ParticipantId for p in roster(group.GroupId) if not p.TransferTarget]
    if payer_participant_id not in members:
        return None
    total = int(result.total)
    name = (" ".join((result.merchant or "").split()) or "Receipt")[:MAX_DESCRIPTION]
    everyone = tuple(SplitInput(pid, 1) for pid in members)
    lines, extras = _lines(result, total)
    items = tuple(ItemInput(line, amount, "EQUAL", everyone) for line, amount in lines) or \
        (ItemInput(name, total, "EQUAL", everyone),)
    notes = _notes(result, group)
    expense = ExpenseInput(
        description=name, date=result.date or today(),
        payments=(PaymentInput(payer_participant_id, total),), items=items,
        # Kept in its own currency, as a chat draft, when it is not the group's.
        currency=result.currency if result.currency and result.currency != group.Currency
        else None, notes=notes)
    draft = Draft(expense, extras)
    try:
        expense_build.build(receipt_extras.folded(draft))
    except Invalid:
        return None
    return draft
