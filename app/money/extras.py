"""Extras (tax, tip, service, discount): exact proportional shares of an expense's extras.

An extra is a signed number of minor units added to (a tip, a tax) or taken off (a
discount) the items' total. Each extra is shared among the participants in proportion to
what they owe for the items (their item subtotals), by the split rounding rule
(app.money.splits.apportion): every share is the floor of its exact share, and the leftover
units go one each, in participant order, to the shares whose exact share is fractional. The
participant order is the order in which participants first appear in the items' splits, so
an extra's shares always sum to the extra and each is within one minor unit of its exact
share (a participant owing nothing for the items gets exactly 0).

Pure integer arithmetic: no floats, no rows, no Flask. ``app.ledger.expense_build`` judges an
expense's extras with these and stores the shares aligned with :func:`participant_order`."""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from app.errors import Invalid
from app.limits import MAX_EXTRAS, MAX_EXTRA_NAME
from app.money.refusals import MoneyInvalid, Quoted
from app.money.splits import MAX_AMOUNT, apportion

# One item's resolved splits: (participantId, owed item share) in list order.
ItemShares = Sequence[Tuple[str, int]]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_extras(extras: Sequence[Tuple[Any, Any]]) -> List[Tuple[str, int]]:
    """``(name, amount)`` pairs as sent, checked: at most MAX_EXTRAS, each name non-blank
    text of at most MAX_EXTRA_NAME characters (trimmed), each amount a signed integer of
    minor units within the amount cap. Raises Invalid with the field's path."""
    if len(extras) > MAX_EXTRAS:
        raise Invalid(f"An expense carries at most {MAX_EXTRAS} extras.",
                      details={"field": "extras"})
    checked = []
    for index, (name, amount) in enumerate(extras):
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_EXTRA_NAME:
            raise Invalid(f"extras[{index}].name must be 1 to {MAX_EXTRA_NAME} characters "
                          "(tax, tip, service, discount or your own words).",
                          details={"field": f"extras[{index}].name"})
        if not _is_int(amount):
            raise Invalid(f"extras[{index}].amount must be an integer number of minor units.",
                          details={"field": f"extras[{index}].amount", "value": repr(amount)})
        if abs(amount) > MAX_AMOUNT:
            raise MoneyInvalid(f"extras[{index}].amount must be between {{low}} and {{high}}, "
                               "got {value}", {"low": Quoted(-MAX_AMOUNT),
                                               "high": Quoted(MAX_AMOUNT),
                                               "value": Quoted(amount)},
                               field=f"extras[{index}].amount")
        checked.append((name.strip(), amount))
    return checked


def participant_order(items: Iterable[ItemShares]) -> List[str]:
    """Every participant of the items' splits, in the order each first appears."""
    seen: Dict[str, None] = {}
    for splits in items:
        for pid, _ in splits:
            seen.setdefault(pid, None)
    return list(seen)


def item_subtotals(items: Iterable[ItemShares], order: Sequence[str]) -> List[int]:
    """What each participant of ``order`` owes for the items, summed over the items."""
    owed = dict.fromkeys(order, 0)
    for splits in items:
        for pid, share in splits:
            owed[pid] += share
    return [owed[pid] for pid in order]


def share_extras(subtotals: Sequence[int], amounts: Sequence[int]) -> List[List[int]]:
    """Each extra's shares, aligned with ``subtotals`` (item subtotals >= 0 with a positive
    sum): in proportion to them, by the split rounding rule; each list sums to its extra."""
    weights = list(subtotals)
    return [apportion(amount, weights) for amount in amounts]


def below_zero(order: Sequence[str], subtotals: Sequence[int],
               shares: Sequence[Sequence[int]]) -> List[Tuple[str, int]]:
    """(participantId, total) of each participant whose item subtotal plus extra shares is
    below 0, in participant order (none: every total owed is at least 0)."""
    totals = [subtotal + sum(extra[index] for extra in shares)
              for index, subtotal in enumerate(subtotals)]
    return [(pid, total) for pid, total in zip(order, totals, strict=True) if total < 0]


def apportion_signed(total: int, amounts: Sequence[int]) -> List[int]:
    """``total`` split in proportion to signed ``amounts`` (with a positive sum), exactly.

    Cumulative rounding: entry k gets floor(total * P_k / S) - floor(total * P_(k-1) / S),
    where P are the prefix sums of ``amounts`` and S their sum, so the parts sum to
    ``total``, each is within one unit of its exact share, and a run of entries whose sum is
    >= 0 gets a part >= 0 (what a converted expense's participants need: their item and
    extra shares, consecutive, never convert to a negative total)."""
    whole = sum(amounts)
    if whole <= 0:
        raise ValueError("amounts must have a positive sum")
    parts, before, prefix = [], 0, 0
    for amount in amounts:
        prefix += amount
        upto = total * prefix // whole
        parts.append(upto - before)
        before = upto
    return parts


# --- reading stored extras (an expense row, a template's map, an ExpenseBody) -------------

def item_order(items) -> List[str]:
    """The participants of stored items in the order each first appears in their splits:
    the order extras' shares are aligned with (app.money.extras)."""
    return participant_order([(s.ParticipantId, 0) for s in item.Splits or []]
                             for item in items or [])


class ExtraShare(NamedTuple):
    participant_id: str
    amount: int
    group_amount: Optional[int]


def extra_shares(row: Any) -> List[Tuple[Any, List[ExtraShare]]]:
    """(extra, its shares by participant) of each extra of a stored row or body (``Items``
    and ``Extras``, or an ExpenseBody's ``items`` and ``extras``): the stored shares are
    bare numbers aligned with :func:`item_order`."""
    items = getattr(row, "Items", None) if hasattr(row, "Items") else row.items
    extras = getattr(row, "Extras", None) if hasattr(row, "Items") else row.extras
    order = item_order(items)
    found = []
    for extra in extras or []:
        group = getattr(extra, "GroupShares", None)
        groups = [int(v) for v in group] if group is not None else [None] * len(order)
        found.append((extra, [ExtraShare(pid, int(amount), g) for pid, amount, g in
                              zip(order, extra.Shares or [], groups, strict=True)]))
    return found
