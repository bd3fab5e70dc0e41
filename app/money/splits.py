"""Exact integer split arithmetic for expenses.

Money is always an int of minor units. Nothing here touches floats, not even as an
intermediate, so the owed amounts of an item always add up to the item amount exactly.

Rounding (PERCENT, SHARES and EQUAL): every split first gets
floor(amount * weight / total_weight); the few leftover minor units then go one each to
the splits in list order, skipping weight-0 splits (a 0% split owes exactly 0). Each
owed amount is therefore within one minor unit of its ideal share.

ADJUSTMENT: each split's value is a signed adjustment; the item amount minus their sum is
shared equally by the same rule (floor toward minus infinity, so a negative remainder is
rounded the same way), then each split's adjustment is added; only a final share below 0
is refused.

An expense's kind says which way its nets move: an EXPENSE's payers paid for the shares,
an INCOME's payers received money the shares own, so every net of an INCOME is the
negation of the same EXPENSE body's (:func:`kind_sign`).
FAIR rounding (a group setting) hands the same leftover units to the splits with a
fractional share whose cumulative rounding so far minus that fraction is smallest (ties in
list order): ``rounding`` is each participant's r, the exact sum of (owed - exact share)
over the group's earlier items in that currency (a Fraction), so whoever has been rounded
up least lately is rounded up next and nobody drifts.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, Mapping, Optional, Sequence

from app.errors import Invalid
from app.money.refusals import MoneyInvalid, Quoted

SPLIT_MODES = ("EQUAL", "EXACT", "PERCENT", "SHARES", "ADJUSTMENT")
ADJUSTMENT = "ADJUSTMENT"
# The modes a group's default split may use: the ones that scale to any amount.
DEFAULT_SPLIT_MODES = ("EQUAL", "SHARES", "PERCENT")
EXPENSE = "EXPENSE"
INCOME = "INCOME"
KINDS = (EXPENSE, INCOME)
# A group's rounding setting: today's rule (the default), or FAIR (see the module docstring).
LIST_ORDER, FAIR = "LIST_ORDER", "FAIR"
ROUNDING_MODES = (LIST_ORDER, FAIR)
MAX_AMOUNT = 10**11
PERCENT_TOTAL = 10_000  # PERCENT values are basis points

Split = tuple[str, Any]
Payment = tuple[str, int]
Item = tuple[int, str, Sequence[Split]]


def _is_int(value: Any) -> bool:
    # bool is an int subclass, and True must not silently mean "1 minor unit".
    return isinstance(value, int) and not isinstance(value, bool)


def _check_amount(amount: Any, field: str) -> None:
    if not _is_int(amount):
        raise Invalid(f"{field} must be an integer number of minor units",
                      details={"field": field, "value": repr(amount)})
    if not 0 < amount <= MAX_AMOUNT:
        raise MoneyInvalid(f"{field} must be between {{low}} and {{high}}, got {{value}}",
                           {"low": Quoted(1), "high": Quoted(MAX_AMOUNT),
                            "value": Quoted(amount)}, field=field)


def _check_participant_ids(ids: Sequence[Any], field: str, what: str) -> None:
    seen: set[str] = set()
    for i, pid in enumerate(ids):
        if not isinstance(pid, str) or not pid:
            raise Invalid(f"{field}[{i}].participantId must be a non-empty string",
                          details={"field": f"{field}[{i}].participantId"})
        if pid in seen:
            raise Invalid(f"participant {pid} appears twice in the {what}",
                          details={"field": f"{field}[{i}].participantId",
                                   "participantId": pid})
        seen.add(pid)


def kind_sign(kind: Any) -> int:
    """+1 for an EXPENSE (None: a row from before kinds), -1 for an INCOME: what every
    net of a body is multiplied by."""
    return -1 if kind == INCOME else 1


def check_kind(kind: Any) -> None:
    """None (an EXPENSE) or one of KINDS, else Invalid."""
    if kind is not None and kind not in KINDS:
        raise Invalid(f"kind must be one of {', '.join(KINDS)}, got {kind!r}",
                      details={"field": "kind", "value": repr(kind)})


def apportion(amount: int, weights: list[int],
              rounding: Optional[Sequence[Fraction]] = None) -> list[int]:
    """Split `amount` proportionally to `weights` (ints >= 0, positive total); with
    ``rounding`` (each split's cumulative rounding r) by the FAIR rule, else in list order."""
    total = sum(weights)
    owed = [amount * w // total for w in weights]
    leftover = amount - sum(owed)
    # Leftover units go one each to the splits whose ideal share has a fractional part (a
    # split owing a whole share exactly is never rounded up): in list order, or FAIR's by
    # smallest r - frac. leftover is the sum of those fractions, each < 1, so there are
    # always enough of them.
    fractional = [i for i, w in enumerate(weights) if amount * w % total]
    if rounding is not None:
        fractional.sort(key=lambda i: (rounding[i] - Fraction(amount * weights[i] % total,
                                                              total), i))
    for i in fractional[:leftover]:
        owed[i] += 1
    return owed


def _weights(mode: str, values: Sequence[int]) -> Optional[list]:
    """The weights an item's split mode shares by (None: EXACT, never rounded)."""
    if mode == "EQUAL":
        return [1] * len(values)
    if mode in ("PERCENT", "SHARES"):
        return [int(v) for v in values]
    return None


def item_rounding(amount: int, mode: str, splits: Sequence[tuple[str, int]],
                  owed: Sequence[int]) -> Dict[str, Fraction]:
    """participantId -> owed - exact share for one resolved item (sums to 0; EXACT: none)."""
    weights = _weights(mode, [value for _, value in splits])
    if weights is None:
        return {}
    total = sum(weights)
    out: Dict[str, Fraction] = {}
    for (pid, _), weight, share in zip(splits, weights, owed, strict=True):
        delta = int(share) - Fraction(int(amount) * weight, total)
        if delta:
            out[pid] = out.get(pid, Fraction(0)) + delta
    return out


def resolve_item(amount: int, mode: str, splits: list[tuple[str, int]],
                 rounding: Optional[Mapping[str, Fraction]] = None) -> list[int]:
    """Owed amount per split, in the order given; always sums exactly to `amount`.

    `splits` is a list of (participantId, value); value is ignored for EQUAL, minor units
    for EXACT, basis points for PERCENT and a weight >= 1 for SHARES. ``rounding``
    (participantId -> cumulative rounding r) picks FAIR rounding. Raises Invalid.
    """
    fair = None if rounding is None else [rounding.get(pid, Fraction(0)) for pid, _ in splits]
    _check_amount(amount, "amount")
    if mode not in SPLIT_MODES:
        raise Invalid(f"splitMode must be one of {', '.join(SPLIT_MODES)}, got {mode!r}",
                      details={"field": "splitMode", "value": repr(mode)})
    if not splits:
        raise Invalid("an item needs at least one split", details={"field": "splits"})
    _check_participant_ids([pid for pid, _ in splits], "splits", "item's splits")

    if mode == "EQUAL":
        return apportion(amount, [1] * len(splits), fair)

    values = [value for _, value in splits]
    minimum = {"SHARES": 1, ADJUSTMENT: -MAX_AMOUNT}.get(mode, 0)
    for i, value in enumerate(values):
        field = f"splits[{i}].value"
        if not _is_int(value):
            raise Invalid(f"{field} must be an integer for {mode} splits",
                          details={"field": field, "value": repr(value)})
        if value < minimum or (mode == ADJUSTMENT and value > MAX_AMOUNT):
            raise Invalid(f"{field} must be at least {minimum} for {mode} splits, got {value}",
                          details={"field": field, "value": value})

    if mode == "EXACT":
        if sum(values) != amount:
            raise MoneyInvalid("EXACT splits sum to {sum} but the item amount is {amount}",
                               {"sum": Quoted(sum(values)), "amount": Quoted(amount)},
                               field="splits")
        return list(values)
    if mode == ADJUSTMENT:
        return _adjusted(amount, values)
    if mode == "PERCENT" and sum(values) != PERCENT_TOTAL:
        raise Invalid(f"PERCENT splits sum to {sum(values)} basis points but must sum to "
                      f"{PERCENT_TOTAL} (100%)",
                      details={"field": "splits", "sum": sum(values), "expected": PERCENT_TOTAL})
    return apportion(amount, values, fair)


def _adjusted(amount: int, adjustments: list[int]) -> list[int]:
    """Equal shares of what the adjustments leave (floor toward minus infinity, leftover
    units in list order), each plus its adjustment; a share below 0 is refused."""
    owed = [share + adjustment for share, adjustment
            in zip(apportion(amount - sum(adjustments), [1] * len(adjustments)), adjustments,
                   strict=True)]
    for i, share in enumerate(owed):
        if share < 0:
            raise MoneyInvalid(f"splits[{i}] would owe {{share}}: an ADJUSTMENT share must "
                               "not be below 0", {"share": Quoted(share)},
                               field=f"splits[{i}].value")
    return owed


def validate_payments(total: int, payments: list[tuple[str, int]]) -> None:
    """Check the payers of an expense: at least one, distinct, each >= 1, summing to total."""
    _check_amount(total, "amount")
    if not payments:
        raise Invalid("an expense needs at least one payment", details={"field": "payments"})
    _check_participant_ids([pid for pid, _ in payments], "payments", "payments")
    for i, (_, paid) in enumerate(payments):
        field = f"payments[{i}].amount"
        if not _is_int(paid):
            raise Invalid(f"{field} must be an integer number of minor units",
                          details={"field": field, "value": repr(paid)})
        if paid < 1:
            raise MoneyInvalid(f"{field} must be at least {{low}}, got {{value}}",
                               {"low": Quoted(1), "value": Quoted(paid)}, field=field)
    paid_total = sum(paid for _, paid in payments)
    if paid_total != total:
        raise MoneyInvalid("payments sum to {sum} but the expense amount is {amount}",
                           {"sum": Quoted(paid_total), "amount": Quoted(total)},
                           field="payments")


def net_effects(payments: list[tuple[str, int]],
                items: list[tuple[int, str, list[tuple[str, int]]]],
                extra_total: int = 0, kind: Any = None) -> dict[str, int]:
    """participantId -> paid - owed for one expense's items (its extras aside: see
    app.money.extras; received - owned for an INCOME, so negated); sums to the extras'
    total (negated for an INCOME).

    Every participant mentioned (payer or split) gets an entry, zeros included. Validates
    every item and the payments against the sum of the item amounts plus ``extra_total``;
    raises Invalid with item fields prefixed by `items[i].`.
    """
    if not items:
        raise Invalid("an expense needs at least one item", details={"field": "items"})
    net: dict[str, int] = {}
    item_total = 0
    for index, (amount, mode, splits) in enumerate(items):
        try:
            owed = resolve_item(amount, mode, splits)
        except Invalid as err:
            err.details["field"] = f"items[{index}].{err.details.get('field', '')}".rstrip(".")
            err.details["item"] = index
            err.field = err.details["field"]  # a MoneyInvalid's own path
            raise
        item_total += amount
        for (pid, _), share in zip(splits, owed, strict=True):
            net[pid] = net.get(pid, 0) - share
    validate_payments(item_total + extra_total, payments)
    check_kind(kind)
    for pid, paid in payments:
        net[pid] = net.get(pid, 0) + paid
    sign = kind_sign(kind)
    return {pid: sign * value for pid, value in net.items()}
