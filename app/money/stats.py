"""Spending tallies (pure): ``spent`` = owed shares (what was consumed), ``paid`` = payments.

Fed one expense at a time (a row, or anything with the same attributes); a converted row
counts in the main currency by its ``GroupAmount``s, a kept row in its own currency's
section. Settlements and conversions are not spending and are never fed here."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from app.money.extras import extra_shares
from app.money.splits import kind_sign

BY = ("category", "month", "participant", "group")


@dataclass
class Tally:
    spent: int = 0
    paid: int = 0
    count: int = 0

    def as_dict(self) -> dict:
        return {"spent": self.spent, "paid": self.paid, "count": self.count}


@dataclass
class Section:
    currency: str
    total: Tally = field(default_factory=Tally)
    rows: Dict[Optional[str], Tally] = field(default_factory=lambda: defaultdict(Tally))

    def sorted_rows(self, by: str) -> List[dict]:
        def order(pair: Tuple[Optional[str], Tally]):
            key, tally = pair
            if by == "month":
                return (key or "",)
            return (-tally.spent, -tally.paid, key is None, key or "")
        return [{"key": key, **tally.as_dict()} for key, tally in sorted(self.rows.items(),
                                                                          key=order)]

    def as_dict(self, by: str) -> dict:
        return {"currency": self.currency, "total": self.total.as_dict(),
                "rows": self.sorted_rows(by)}


def shares(expense) -> Tuple[str, bool, Dict[str, int], Dict[str, int]]:
    """(currency it counts in, converted?, owed per participant, paid per participant).

    An INCOME counts negative: its shares un-spend what they own and its receivers un-pay
    what they received (its count is still 1)."""
    converted = getattr(expense, "GroupAmount", None) is not None
    sign = kind_sign(getattr(expense, "ExpenseKind", None))
    owed: Dict[str, int] = defaultdict(int)
    paid: Dict[str, int] = defaultdict(int)
    for item in expense.Items or ():
        for split in item.Splits or ():
            owed[split.ParticipantId] += sign * int(split.GroupAmount if converted
                                                    else split.Amount)
    for _, extra in extra_shares(expense):  # tax, tip, discount: part of what each owes
        for share in extra:
            owed[share.participant_id] += sign * (share.group_amount if converted
                                                  else share.amount)
    for payment in expense.Payments or ():
        paid[payment.ParticipantId] += sign * int(payment.GroupAmount if converted
                                                  else payment.Amount)
    return expense.Currency, converted, owed, paid


class Tallies:
    """Sections per currency; ``main`` is the currency converted rows count in."""

    def __init__(self, main: str):
        self.main = main
        self.sections: Dict[str, Section] = {}

    def section(self, currency: str) -> Section:
        if currency not in self.sections:
            self.sections[currency] = Section(currency)
        return self.sections[currency]

    def add_group_expense(self, expense, by: str) -> None:
        """Everyone's shares of one expense of a group."""
        currency, converted, owed, paid = shares(expense)
        section = self.section(self.main if converted or currency == self.main else currency)
        spent_total, paid_total = sum(owed.values()), sum(paid.values())
        section.total.spent += spent_total
        section.total.paid += paid_total
        section.total.count += 1
        if by == "participant":
            for pid in set(owed) | set(paid):
                row = section.rows[pid]
                row.spent += owed.get(pid, 0)
                row.paid += paid.get(pid, 0)
                row.count += 1
            return
        row = section.rows[_key(expense, by)]
        row.spent += spent_total
        row.paid += paid_total
        row.count += 1

    def add_my_share(self, expense, participant_id: str, by: str, group_currency: str,
                     group_key: Optional[str] = None) -> None:
        """One participant's own share of one expense of a group in ``group_currency``
        (skipped when not involved)."""
        currency, converted, owed, paid = shares(expense)
        if participant_id not in owed and participant_id not in paid:
            return
        key = group_key if by == "group" else _key(expense, by)
        self.add_share(group_currency if converted else currency, key,
                       owed.get(participant_id, 0), paid.get(participant_id, 0))

    def add_share(self, currency: str, key: Optional[str], spent: int, paid: int) -> None:
        """One account's share of one expense, already worked out (a projection row)."""
        section = self.section(currency)
        for tally in (section.total, section.rows[key]):
            tally.spent += spent
            tally.paid += paid
            tally.count += 1


def row_key(expense, by: str, group_key: Optional[str] = None) -> Optional[str]:
    """The row an expense counts in: its group, month or category."""
    return group_key if by == "group" else _key(expense, by)


def _key(expense, by: str) -> Optional[str]:
    return expense.Date[:7] if by == "month" else expense.Category

