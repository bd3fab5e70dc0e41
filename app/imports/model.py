"""The neutral in-memory model every format's parser produces, and the error they raise.

Members are keyed by the source's own key (a name, or an id where the source has them);
rows name members by that key. Money is integer minor units of the row's currency."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

EXPENSE, SETTLEMENT = "EXPENSE", "SETTLEMENT"


class ImportFileError(Exception):
    """The file cannot be imported as it is: the first bad line and why."""

    def __init__(self, line: Optional[int], reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


@dataclass
class Item:
    """One item of an expense: its amount and how it is split (the API's split modes)."""

    name: str
    amount: int
    mode: str
    splits: List[Tuple[str, int]]  # (member key, value as the mode reads it)


@dataclass(frozen=True)
class RecordedRate:
    """How the source app converted a row in another currency: ``group_amount`` minor units
    of ``currency`` (its group's) is what its balances count; ``exchange_rate`` (1 unit of
    the row's currency = rate units of ``currency``) is the rate it recorded, if any."""

    currency: str
    group_amount: int
    exchange_rate: Optional[str] = None


@dataclass
class Row:
    """One expense or settlement of the file, with the line it came from."""

    line: int
    kind: str
    date: str
    currency: str
    description: str = ""
    category: Optional[str] = None
    recorded_rate: Optional[RecordedRate] = None  # a row the source app converted
    payments: List[Tuple[str, int]] = field(default_factory=list)  # expenses
    items: List[Item] = field(default_factory=list)
    payer: Optional[str] = None  # settlements
    payee: Optional[str] = None
    amount: int = 0  # settlements; an expense's amount is its items' sum
    note: Optional[str] = None  # settlements
    notes: Optional[str] = None  # expenses: the source's free-text notes
    # An expense the group received (kind INCOME): payments name who received it, items
    # whom it belongs to, and its nets move the other way.
    income: bool = False
    # expenses: (name, signed amount) of each tax, tip, service or discount (our own export)
    extras: List[Tuple[str, int]] = field(default_factory=list)
    # An expense that names nobody to share it (no items, no split): its total, which the
    # file's default split shares as a REST create's would (parse.shared_by_default).
    unshared_amount: Optional[int] = None

    @property
    def total(self) -> int:
        return self.amount if self.kind == SETTLEMENT else (
            sum(i.amount for i in self.items) + sum(amount for _, amount in self.extras))

    def nets(self) -> Dict[str, int]:
        """paid - owed per member (settlement: the payer up, the payee down)."""
        if self.kind == SETTLEMENT:
            return {self.payer: self.amount, self.payee: -self.amount}
        from app.money import extras as extra_money
        from app.money.splits import net_effects, resolve_item

        items = [(i.amount, i.mode, i.splits) for i in self.items]
        extra_total = sum(amount for _, amount in self.extras)
        nets = net_effects(self.payments, items, extra_total, self.ledger_kind)
        if self.extras:
            owed = [list(zip([key for key, _ in splits], resolve_item(amount, mode, splits),
                             strict=True)) for amount, mode, splits in items]
            order = extra_money.participant_order(owed)
            shares = extra_money.share_extras(extra_money.item_subtotals(owed, order),
                                              [amount for _, amount in self.extras])
            sign = -1 if self.income else 1  # an INCOME's extra shares are owned, not owed
            for part in shares:
                for key, share in zip(order, part, strict=True):
                    nets[key] -= sign * share
        return nets

    @property
    def ledger_kind(self) -> Optional[str]:
        """The ledger's kind of this expense row: INCOME, or None (an EXPENSE)."""
        from app.money.splits import INCOME

        return INCOME if self.income else None


    def expense_input(self, participant_ids: Dict[str, str], *,
                      exchange_rate: Optional[str] = None):
        """This expense row as the ledger's ExpenseInput, members named by participant id
        (or by key), texts cut to the REST limits (ExpenseInput's TEXT_MAX, ITEM_NAME_MAX)."""
        from app.ledger.expense_input import (ITEM_NAME_MAX, TEXT_MAX, ExpenseInput,
                                              ExtraInput, ItemInput, PaymentInput, SplitInput)

        def pid(key: str) -> str:
            return participant_ids.get(key, key)

        return ExpenseInput(
            description=self.description[:TEXT_MAX["description"]] or "Expense",
            category=self.category, date=self.date,
            notes=(self.notes or "")[:TEXT_MAX["notes"]] or None,
            payments=tuple(PaymentInput(pid(key), amount) for key, amount in self.payments),
            items=tuple(ItemInput((item.name or "Item")[:ITEM_NAME_MAX], item.amount,
                                  item.mode,
                                  tuple(SplitInput(pid(key), value) for key, value in item.splits))
                        for item in self.items),
            extras=tuple(ExtraInput(name, amount) for name, amount in self.extras) or None,
            currency=self.currency, exchange_rate=exchange_rate, kind=self.ledger_kind)


@dataclass
class Parsed:
    """A whole file: its members, rows, what it says the balances are, and warnings."""

    format: str
    members: Dict[str, str]  # member key -> display name, in the file's order
    rows: List[Row]
    name: Optional[str] = None  # the group's name, when the file has one
    currency: Optional[str] = None  # the group's main currency, when the file says
    # What the source shows as each member's balance, per currency (Splitwise's
    # Total balance rows), with the line it was read from: checked after the import.
    totals: Dict[str, Tuple[int, Dict[str, int]]] = field(default_factory=dict)
    warnings: List[Tuple[Optional[int], str]] = field(default_factory=list)
    skipped: int = 0
    # Only our own export carries these (formats/tailspend_json.py).
    # member key -> the role its guest holds (MEMBER without one)
    roles: Dict[str, str] = field(default_factory=dict)
    # member key -> its household label (trimmed, at most MAX_HOUSEHOLD characters)
    households: Dict[str, str] = field(default_factory=dict)
    comments: List[CommentRow] = field(default_factory=list)
    templates: List[TemplateRow] = field(default_factory=list)
    # The group's default split: (EQUAL | SHARES | PERCENT, [(member key, value)]); the new
    # group keeps it, and rows that name nobody are shared by it.
    default_split: Optional[Tuple[str, List[Tuple[str, Optional[int]]]]] = None

    def warn(self, line: Optional[int], message: str) -> None:
        self.warnings.append((line, message))

    def skip(self, line: Optional[int], message: str) -> None:
        self.skipped += 1
        self.warn(line, message)

    def currencies(self) -> Dict[str, int]:
        """currency -> how many rows use it."""
        used: Dict[str, int] = {}
        for row in self.rows:
            used[row.currency] = used.get(row.currency, 0) + 1
        return used


@dataclass
class CommentRow:
    """A comment of our own export: the expense row it hangs off (its index in
    ``Parsed.rows``), its author (a member key, None when unknown) and its text."""

    line: int
    row_index: int
    author: Optional[str]
    body: str
    created_at: str
    edited_at: Optional[str] = None


@dataclass
class TemplateRow:
    """A recurring template of our own export: its expense part as a Row (dated its start),
    how that converts, and its schedule and where the schedule stands."""

    line: int
    body: Row
    schedule: Dict[str, object]  # schedule.build's keyword arguments
    paused: bool = False
    next_date: Optional[str] = None
    last_date: Optional[str] = None
    exchange_rate: Optional[str] = None  # a recorded rate, or "auto"
    group_amount: Optional[int] = None
