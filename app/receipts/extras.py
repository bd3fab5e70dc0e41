"""A receipt draft's extras (tax, tip, service, discount) and the one place confirm folds them
into the expense's items.

A scan's draft keeps each receipt line as an item and its tax, tip, service and discount
lines as ``extras: [{name, amount}]`` (minor units of the draft's currency, a discount
negative), so a person can assign the lines to who had them and the extras follow in
proportion. Confirm makes the expense by :func:`fold`: the extras' sum is shared over the
items in proportion to their amounts (exact: ``apportion``'s largest remainders), so each
item carries its share of tax and tip and every person owes the extras in proportion to
what they had.

MERGE(h/extras): ExpenseInput has no ``extras`` field on this branch. When the expense
input gains ``extras: [{name, amount}]`` (issue 47's money part), confirm should hand the
extras to the ledger as that field instead of folding them here: replace the body of
:func:`fold` (its only caller is app.receipts.attaching) and keep :class:`Extra`, which is
the same wire shape (app.receipts.draft_input)."""
from __future__ import annotations

from typing import Any, Iterable, Optional, Tuple

from app.errors import Invalid
from app.ledger.expense_input import ExpenseInput, ItemInput, SplitInput
from app.limits import MAX_EXTRAS
from app.money.splits import apportion
from app.receipts.draft_input import Draft, Extra


def wire(extras: Iterable[Extra]) -> list:
    """The draft body's ``extras``."""
    return [{"name": e.name, "amount": e.amount} for e in extras]


def of_wire(value: Any) -> Tuple[Extra, ...]:
    """A stored draft's ``extras`` (absent: none)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise Invalid("extras must be a list of objects.",
                      details={"extras": ["Must be a list of objects."]})
    return tuple(Extra(str(e.get("name") or ""), e.get("amount")) for e in value)


def folded(draft: Draft) -> ExpenseInput:
    """The expense confirm creates of a draft: its extras shared over its items."""
    return fold(draft.expense, draft.extras)


def _refused(message: str) -> Invalid:
    return Invalid(message, details={"extras": [message]})


def _as_items(expense: ExpenseInput) -> Tuple[ItemInput, ...]:
    if expense.items:
        return tuple(expense.items)
    return (ItemInput(None, expense.amount, expense.split_mode, tuple(expense.splits or ())),)


def _item_with(item: ItemInput, amount: int) -> ItemInput:
    if item.split_mode != "EXACT":
        return item._replace(amount=amount)
    values = [s.value for s in item.splits]
    if not all(isinstance(v, int) and v >= 0 for v in values) or sum(values) <= 0:
        return item._replace(amount=amount)  # the ledger's build says what is wrong
    owed = apportion(amount, values)
    return item._replace(amount=amount, splits=tuple(
        SplitInput(s.participant_id, v) for s, v in zip(item.splits, owed, strict=True)))


def fold(expense: ExpenseInput, extras: Iterable[Extra]) -> ExpenseInput:
    """The expense with the extras shared over its items in proportion to their amounts;
    EXACT splits are rescaled to their item's new amount. No extras: the expense as it is."""
    extras = tuple(extras)
    if not extras:
        return expense
    if len(extras) > MAX_EXTRAS:
        raise _refused(f"At most {MAX_EXTRAS} extras.")
    if not all(isinstance(e.amount, int) and not isinstance(e.amount, bool) for e in extras):
        raise _refused("Each extra's amount must be an integer of minor units.")
    items = _as_items(expense)
    amounts = [item.amount for item in items]
    if not all(isinstance(a, int) and not isinstance(a, bool) and a > 0 for a in amounts):
        return expense  # the ledger's build refuses the items themselves, with its message
    added = sum(e.amount for e in extras)
    shares = apportion(abs(added), amounts)
    sign = -1 if added < 0 else 1
    new_amounts = [a + sign * s for a, s in zip(amounts, shares, strict=True)]
    if min(new_amounts) <= 0:
        raise _refused("The discounts take more than the items cost.")
    folded = tuple(_item_with(i, a) for i, a in zip(items, new_amounts, strict=True))
    before = sum(amounts)
    amount: Optional[int] = expense.amount
    if "amount" in expense.sent and (amount == before or not expense.items):
        amount = before + added  # a check of the items' sum (or the shorthand's), now theirs
    sent = (expense.sent - {"split_mode", "splits"}) | {"items"}
    return expense._replace(items=folded, amount=amount, split_mode=None, splits=None,
                            sent=frozenset(sent))
