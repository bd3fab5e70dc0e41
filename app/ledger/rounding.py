"""FAIR rounding's state: each participant's cumulative rounding r per currency, kept exactly.

r is the sum, over the group's live expense items in one currency, of (owed - exact share):
an exact fraction (app.money.splits.item_rounding), stored on the balance row as text
(``Round_<ledger key>`` = "-1/3") because DynamoDB numbers can't hold a third. A FAIR
group's expense create, edit and delete reads the balance row, resolves the body's leftover
units by r (app.money.splits.apportion), and writes the new r in the same TransactWrite,
conditioned on the balance revision it read (a write meanwhile: read again). LIST_ORDER
groups (the default) keep no r; switching a group to FAIR computes r from its expense rows
once, in the transaction that switches it."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional

from app.errors import Conflict
from app.ledger.balances import KEPT_SEPARATOR, ledger_key
from app.ledger.expense_body import ExpenseBody
from app.money import splits
from app.money.splits import item_rounding
from models.groups import EXPENSE_PREFIX, Balance, Expense

LIST_ORDER, FAIR, MODES = splits.LIST_ORDER, splits.FAIR, splits.ROUNDING_MODES
Rounding = Dict[str, Fraction]  # ledger key -> r


def is_fair(group: Any) -> bool:
    return getattr(group, "Rounding", None) == FAIR


def section_of(body: ExpenseBody, main_currency: str) -> Optional[str]:
    """The currency whose r a body's items count in (None: the main one)."""
    return None if body.currency in (None, main_currency) else body.currency


def body_rounding(body: ExpenseBody, main_currency: str) -> Rounding:
    """A body's contribution to r, by ledger key (its items' owed - exact shares)."""
    kept = section_of(body, main_currency)
    out: Rounding = {}
    for item in body.items:
        splits = [(s.ParticipantId, int(s.Value or 0)) for s in item.Splits]
        owed = [int(s.Amount) for s in item.Splits]
        for pid, delta in item_rounding(int(item.Amount), item.SplitMode, splits,
                                        owed).items():
            key = ledger_key(pid, kept)
            out[key] = out.get(key, Fraction(0)) + delta
    return out


def stored(raw: Optional[dict]) -> Rounding:
    """r by ledger key from a raw balance row (zeros dropped)."""
    out = {key: Fraction(text) for key, text in Balance.rounding_of(raw).items()}
    return {key: value for key, value in out.items() if value}


def section(all_rounding: Mapping[str, Fraction], kept: Optional[str]) -> Dict[str, Fraction]:
    """participantId -> r in one currency section."""
    out = {}
    for key, value in all_rounding.items():
        currency, _, pid = key.rpartition(KEPT_SEPARATOR)
        if (currency or None) == kept:
            out[pid] = value
    return out


def combined(*parts: Mapping[str, Fraction], signs: tuple = ()) -> Rounding:
    """Sum of rounding maps (each times its sign, default +1)."""
    out: Rounding = {}
    for index, part in enumerate(parts):
        sign = signs[index] if index < len(signs) else 1
        for key, value in part.items():
            out[key] = out.get(key, Fraction(0)) + sign * value
    return out


def changes(before: Mapping[str, Fraction], after: Mapping[str, Fraction]
            ) -> Dict[str, Optional[str]]:
    """What taking r from ``before`` to ``after`` writes: ledger key -> the exact fraction's
    text, None where r is gone (balances.add_to_balance's ``rounding``)."""
    out: Dict[str, Optional[str]] = {}
    for key in sorted(set(before) | set(after)):
        value = after.get(key, Fraction(0))
        if value != before.get(key, Fraction(0)):
            out[key] = str(value) if value else None
    return out


def recompute(group_id: str, main_currency: str) -> Rounding:
    """r from every live expense of the group (consistent reads): what switching to FAIR
    writes, and what the tests compare the stored r with."""
    total: Rounding = {}
    for expense in Expense.query(group_id, Expense.SK.startswith(EXPENSE_PREFIX),
                                 consistent_read=True):
        total = combined(total, body_rounding(ExpenseBody.from_row(expense), main_currency))
    return {key: value for key, value in sorted(total.items()) if value}


def shown(all_rounding: Mapping[str, Fraction], kept: Optional[str],
          participant_ids: List[str]) -> List[dict]:
    """``rounding`` of one balances section: every listed participant's r as a decimal
    string rounded half-even to 6 places."""
    values = section(all_rounding, kept)
    return [{"participantId": pid,
             "cumulative": str(_six_places(values.get(pid, Fraction(0))))}
            for pid in participant_ids]


def _six_places(value: Fraction) -> Decimal:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal("0.000001"), rounding=ROUND_HALF_EVEN)


class RoundingMoved(Conflict):
    """The balance row moved after a FAIR write read r: read it again and rebuild."""


ATTEMPTS = 3


@dataclass(frozen=True)
class FairState:
    """A FAIR group's r as read (with the balance revision the write conditions on)."""

    revision: int
    stored: Rounding
    row: Optional[dict] = None  # the balance row as read, which the write encodes against

    def for_currency(self, currency: Optional[str], main_currency: str) -> Dict[str, Fraction]:
        """participantId -> r in the section a body in ``currency`` counts in."""
        return section(self.stored, None if currency in (None, main_currency) else currency)

    def update(self, after: Mapping[str, Fraction], on_fail: Any = None) -> dict:
        """add_to_balance's arguments taking r to ``after``, on the revision read (moved
        meanwhile: ``on_fail``, by default :class:`RoundingMoved`)."""
        return {"rounding": changes(self.stored, after), "revision": self.revision,
                "on_fail": on_fail if on_fail is not None else self.moved(), "row": self.row}

    @staticmethod
    def moved() -> RoundingMoved:
        return RoundingMoved("The balances changed meanwhile.")


def read_state(group: Any) -> Optional[FairState]:
    """A FAIR group's r (one GetItem of the balance row); None for LIST_ORDER."""
    if not is_fair(group):
        return None
    raw = Balance.fetch_raw(group.GroupId)
    return FairState(Balance.revision_of(raw) or 0, stored(raw), raw)


def with_rounding(result: Any, group: Any, raw: Optional[dict]) -> Any:
    """A FAIR group's balances with ``rounding`` in every currency section (from the balance
    row already read: no call); LIST_ORDER groups' unchanged."""
    if not is_fair(group):
        return result
    import dataclasses
    values = stored(raw)
    sections = [dataclasses.replace(s, rounding=shown(values, s.currency,
                                                      [r.participant_id for r in s.rows]))
                for s in result.other_currencies]
    return dataclasses.replace(result, rounding=shown(values, None,
                                                      [r.participant_id for r in result.rows]),
                               other_currencies=sections)
