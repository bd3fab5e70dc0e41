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


@dataclass
class Row:
    """One expense or settlement of the file, with the line it came from."""

    line: int
    kind: str
    date: str
    currency: str
    description: str = ""
    category: Optional[str] = None
    payments: List[Tuple[str, int]] = field(default_factory=list)  # expenses
    items: List[Item] = field(default_factory=list)
    payer: Optional[str] = None  # settlements
    payee: Optional[str] = None
    amount: int = 0  # settlements; an expense's amount is its items' sum
    note: Optional[str] = None  # settlements
    notes: Optional[str] = None  # expenses: the source's free-text notes

    @property
    def total(self) -> int:
        return self.amount if self.kind == SETTLEMENT else sum(i.amount for i in self.items)

    def nets(self) -> Dict[str, int]:
        """paid - owed per member (settlement: the payer up, the payee down)."""
        if self.kind == SETTLEMENT:
            return {self.payer: self.amount, self.payee: -self.amount}
        from app.money.splits import net_effects

        return net_effects(self.payments, [(i.amount, i.mode, i.splits) for i in self.items])


    def expense_input(self, participant_ids: Dict[str, str], *,
                      exchange_rate: Optional[str] = None):
        """This expense row as the ledger's ExpenseInput, members named by participant id
        (or by key), texts cut to the ledger's limits (app.limits)."""
        from app.limits import EXPENSE_DESCRIPTION_MAX, EXPENSE_ITEM_NAME_MAX, EXPENSE_NOTES_MAX
        from app.money.expense_input import ExpenseInput, ItemInput, PaymentInput, SplitInput

        def pid(key: str) -> str:
            return participant_ids.get(key, key)

        return ExpenseInput(
            description=self.description[:EXPENSE_DESCRIPTION_MAX] or "Expense",
            category=self.category, date=self.date,
            notes=(self.notes or "")[:EXPENSE_NOTES_MAX] or None,
            payments=tuple(PaymentInput(pid(key), amount) for key, amount in self.payments),
            items=tuple(ItemInput((item.name or "Item")[:EXPENSE_ITEM_NAME_MAX], item.amount,
                                  item.mode,
                                  tuple(SplitInput(pid(key), value) for key, value in item.splits))
                        for item in self.items),
            currency=self.currency, exchange_rate=exchange_rate)


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
