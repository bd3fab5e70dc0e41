"""A receipt draft's extras (tax, tip, service, discount) and how confirm hands them to the
ledger.

A scan's draft keeps each receipt line as an item and its tax, tip, service and discount
lines as ``extras: [{name, amount}]`` (minor units of the draft's currency, a discount
negative), so a person can assign the lines to who had them. Confirm makes the expense by
:func:`fold`: the draft's extras become the expense's own ``extras``, which the ledger shares
among the participants in proportion to what each owes for the items (app.money.extras)."""
from __future__ import annotations

from typing import Any, Iterable, Tuple

from app.errors import Invalid
from app.ledger.expense_input import ExpenseInput, ExtraInput, ItemInput, SplitInput
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
    """The expense with the draft's extras as its own ``extras``: the ledger shares each one
    among the participants in proportion to what they owe for the items (app.money.extras),
    so each line stays with the people who had it. The items are the draft's lines (a
    shorthand draft's one item); the amount follows from them plus the extras. No extras:
    the expense as it is."""
    extras = tuple(extras)
    if not extras:
        return expense
    if len(extras) > MAX_EXTRAS:
        raise _refused(f"At most {MAX_EXTRAS} extras.")
    if not all(isinstance(e.amount, int) and not isinstance(e.amount, bool) for e in extras):
        raise _refused("Each extra's amount must be an integer of minor units.")
    sent = (expense.sent - {"split_mode", "splits", "amount"}) | {"items", "extras"}
    return expense._replace(items=_as_items(expense), amount=None, split_mode=None,
                            splits=None, sent=frozenset(sent),
                            extras=tuple(ExtraInput(e.name or "Extra", e.amount)
                                         for e in extras))
