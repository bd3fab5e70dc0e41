"""Group export: a Splitwise-shaped CSV, or the whole group as JSON."""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Dict, List

from app.money.currencies import format_minor
from app.services.ledger import balances
from app.services.core.access import Access
from app.services.core.clock import today
from app.services.ledger.expense_body import ExpenseBody
from app.services.ledger.settlements import GroupSettlement
from models.groups import SETTLEMENT_PREFIX, Expense, Participant, Settlement

# Spreadsheets run a cell starting with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
FIXED_COLUMNS = ["Date", "Description", "Category", "Cost", "Currency"]
# After the net columns: who paid, then "<name> paid" and "<name> owed" per participant.
# The splitwise-csv import stops reading member columns here.
PAYER_COLUMN = "Paid by"


def safe_cell(value) -> str:
    """A cell a spreadsheet will never evaluate: a leading = + - @ tab or CR gets a quote.

    Plain numbers we wrote ourselves are left alone: "-12.50" cannot run as a formula, and
    quoting it would turn a debt into text."""
    text = "" if value is None else str(value)
    if text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.match(text):
        return "'" + text
    return text


def _column_names(participants: List[Participant], extra_ids: List[str]) -> Dict[str, str]:
    """participantId -> unique column header (display names, disambiguated when repeated)."""
    names: Dict[str, str] = {}
    used = set()
    for pid, name in [(p.ParticipantId, p.DisplayName) for p in participants] + [
            (pid, balances.FORMER_PARTICIPANT) for pid in extra_ids]:
        label = name if name not in used else f"{name} ({pid[:8]})"
        used.add(label)
        names[pid] = label
    return names


def _activity(group_id: str) -> tuple:
    """Every expense head (via GroupExpensesIndex) and settlement, oldest first."""
    expenses = list(Expense.group_expenses.query(group_id, scan_index_forward=True))
    settlements = list(Settlement.query(group_id, Settlement.SK.startswith(SETTLEMENT_PREFIX),
                                        consistent_read=True))
    return expenses, settlements


@dataclass(frozen=True)
class _Line:
    """One CSV row's facts: per participant what they paid and what they owed (a settlement:
    the payer paid it, the payee received it), whose difference is the row's net cell."""

    date: str
    created_at: str
    description: str
    category: str
    cost: int
    payers: List[str]
    paid: Dict[str, int]
    owed: Dict[str, int]

    def net(self, pid: str) -> int:
        return self.paid.get(pid, 0) - self.owed.get(pid, 0)


def _sum(into: Dict[str, int], values: Dict[str, int]) -> None:
    for pid, value in values.items():
        into[pid] = into.get(pid, 0) + value


def _expense_line(e: Expense) -> _Line:
    cells = ExpenseBody.from_row(e).for_export()
    paid: Dict[str, int] = {}
    owed: Dict[str, int] = {}
    _sum(paid, {p.ParticipantId: int(p.Amount) for p in e.Payments or []})
    for item in e.Items or []:
        for split in item.Splits or []:
            _sum(owed, {split.ParticipantId: int(split.Amount)})
    return _Line(e.Date, e.CreatedAt, cells["Description"], cells["Category"], cells["Cost"],
                 [p.ParticipantId for p in e.Payments or []], paid, owed)


def export_csv(access: Access) -> str:
    """One row per expense and settlement with each participant's net effect (the shape
    Splitwise exports), then who paid, then each participant's paid and owed amounts
    (paid - owed = net on every row), then the totals."""
    currency = access.group.Currency
    roster = list(Participant.roster(access.group_id, consistent_read=True))
    expenses, settlements = _activity(access.group_id)
    known = {p.ParticipantId: p.DisplayName for p in roster}
    lines = [_expense_line(e) for e in expenses]
    for s in settlements:
        label = f"{known.get(s.PayerId, balances.FORMER_PARTICIPANT)} paid " \
                f"{known.get(s.PayeeId, balances.FORMER_PARTICIPANT)}"
        lines.append(_Line(s.Date or s.CreatedAt[:10], s.CreatedAt, label, "Payment",
                           int(s.Amount), [s.PayerId], {s.PayerId: int(s.Amount)},
                           {s.PayeeId: int(s.Amount)}))
    lines.sort(key=lambda line: (line.date, line.created_at))
    paid_total: Dict[str, int] = {}
    owed_total: Dict[str, int] = {}
    for line in lines:
        _sum(paid_total, line.paid)
        _sum(owed_total, line.owed)
    extra = sorted(pid for pid in set(paid_total) | set(owed_total) if pid not in known)
    columns = _column_names(roster, extra)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = list(columns.values())
    writer.writerow([safe_cell(c) for c in FIXED_COLUMNS + names + [PAYER_COLUMN] +
                     [f"{name} {what}" for name in names for what in ("paid", "owed")]])

    def money(values: Dict[str, int]) -> List[str]:
        return [format_minor(values.get(pid, 0), currency) for pid in columns]

    def paid_owed(paid: Dict[str, int], owed: Dict[str, int]) -> List[str]:
        return [format_minor(side.get(pid, 0), currency) for pid in columns
                for side in (paid, owed)]

    for line in lines:
        payers = "; ".join(columns.get(pid, balances.FORMER_PARTICIPANT) for pid in line.payers)
        writer.writerow([safe_cell(c) for c in [line.date, line.description, line.category,
                                                format_minor(line.cost, currency), currency]] +
                        [format_minor(line.net(pid), currency) for pid in columns] +
                        [safe_cell(payers)] + paid_owed(line.paid, line.owed))
    writer.writerow([])
    totals = {pid: paid_total.get(pid, 0) - owed_total.get(pid, 0) for pid in columns}
    writer.writerow([today(), "Total balance", "", "", currency] + money(totals) + [""]
                    + paid_owed(paid_total, owed_total))
    return out.getvalue()


@dataclass(frozen=True)
class GroupExport:
    """The whole group, each part dumped by its own reply schema (ExportSchema)."""

    group: Access
    participants: List[Participant]
    expenses: List[Expense]
    settlements: List[GroupSettlement]
    balances: balances.Balances


def export_json(access: Access) -> GroupExport:
    """The whole group: head, participants, expenses, settlements and balances."""
    roster = list(Participant.roster(access.group_id, consistent_read=True))
    expenses, settlements = _activity(access.group_id)
    return GroupExport(access, roster, expenses,
                       [GroupSettlement(s, access.group.Currency) for s in settlements],
                       balances.group_balances(access))
