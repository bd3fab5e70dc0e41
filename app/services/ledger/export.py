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


def export_csv(access: Access) -> str:
    """One row per expense and settlement with each participant's net effect, then totals."""
    currency = access.group.Currency
    roster = list(Participant.roster(access.group_id, consistent_read=True))
    expenses, settlements = _activity(access.group_id)
    rows = []
    for e in expenses:
        cells = ExpenseBody.from_row(e).for_export()
        rows.append((e.Date, e.CreatedAt, cells["Description"], cells["Category"],
                     cells["Cost"], balances.expense_nets(e)))
    known = {p.ParticipantId: p.DisplayName for p in roster}
    for s in settlements:
        label = f"{known.get(s.PayerId, balances.FORMER_PARTICIPANT)} paid " \
                f"{known.get(s.PayeeId, balances.FORMER_PARTICIPANT)}"
        rows.append((s.Date or s.CreatedAt[:10], s.CreatedAt, label, "Payment", int(s.Amount),
                     balances.settlement_nets(s.PayerId, s.PayeeId, s.Amount)))
    rows.sort(key=lambda row: (row[0], row[1]))
    totals: Dict[str, int] = {}
    for *_, nets in rows:
        for pid, value in nets.items():
            totals[pid] = totals.get(pid, 0) + value
    extra = sorted(pid for pid in totals if pid not in known)
    columns = _column_names(roster, extra)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(c) for c in FIXED_COLUMNS + list(columns.values())])
    for date, _, description, category, cost, nets in rows:
        writer.writerow([safe_cell(c) for c in [date, description, category,
                                                format_minor(cost, currency), currency]] +
                        [format_minor(nets.get(pid, 0), currency) for pid in columns])
    writer.writerow([])
    writer.writerow([today(), "Total balance", "", "", currency] +
                    [format_minor(totals.get(pid, 0), currency) for pid in columns])
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
