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
from models.groups import (CONVERSION_PREFIX, SETTLEMENT_PREFIX, Conversion, Expense,
                           Participant, Settlement)

# Spreadsheets run a cell starting with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
FIXED_COLUMNS = ["Date", "Description", "Category", "Cost", "Currency"]
# After the participant columns, so a Splitwise-shaped reader still finds its own.
RATE_COLUMNS = ["Exchange rate", "Rate source", "Rate date", "Group cost"]


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
    """Every expense head (via GroupExpensesIndex), settlement and conversion, oldest first."""
    expenses = list(Expense.group_expenses.query(group_id, scan_index_forward=True))
    settlements = list(Settlement.query(group_id, Settlement.SK.startswith(SETTLEMENT_PREFIX),
                                        consistent_read=True))
    conversions = list(Conversion.query(group_id, Conversion.SK.startswith(CONVERSION_PREFIX),
                                        consistent_read=True))
    return expenses, settlements, conversions


def _expense_row(e: Expense, main: str) -> tuple:
    """(date, createdAt, description, category, cost, currency, nets, rate cells)."""
    body = ExpenseBody.from_row(e)
    cells = body.for_export()
    # Kept rows show their own currency; converted rows their group cost beside the original.
    kept = None if body.converted or body.currency in (None, main) else body.currency
    nets = balances.split_nets(balances.body_nets(body, main))[1].get(kept, {}) if kept else \
        balances.body_nets(body, main)
    return (e.Date, e.CreatedAt, cells["Description"], cells["Category"], cells["Cost"],
            body.currency or main, nets, kept or main,
            (cells["Exchange rate"], cells["Rate source"], cells["Rate date"],
             cells["Group cost"]))


def export_csv(access: Access) -> str:
    """One row per expense, settlement and conversion with each participant's net effect
    (in the currency the row counts in), then a total line per currency."""
    currency = access.group.Currency
    roster = list(Participant.roster(access.group_id, consistent_read=True))
    expenses, settlements, conversions = _activity(access.group_id)
    rows = [_expense_row(e, currency) for e in expenses]
    known = {p.ParticipantId: p.DisplayName for p in roster}
    for s in settlements:
        label = f"{known.get(s.PayerId, balances.FORMER_PARTICIPANT)} paid " \
                f"{known.get(s.PayeeId, balances.FORMER_PARTICIPANT)}"
        main_nets, kept_nets = balances.split_nets(balances.stored_settlement_nets(s, currency))
        ledger = next(iter(kept_nets), currency)
        rows.append((s.Date or s.CreatedAt[:10], s.CreatedAt, label, "Payment", int(s.Amount),
                     s.Currency or currency, kept_nets.get(ledger, main_nets), ledger,
                     (s.ExchangeRate or "", s.RateSource or "", s.RateDate or "",
                      "" if s.GroupAmount is None else s.GroupAmount)))
    for c in conversions:
        main_nets, kept_nets = balances.split_nets(balances.conversion_nets(c))
        moved = sum(v for v in kept_nets.get(c.Currency, {}).values() if v < 0)
        for ledger, nets in ((c.Currency, kept_nets.get(c.Currency, {})), (currency, main_nets)):
            rows.append((c.CreatedAt[:10], c.CreatedAt, f"Conversion {c.Currency} to {currency}",
                         "Conversion", -moved if ledger == c.Currency else
                         sum(v for v in main_nets.values() if v > 0), ledger, nets, ledger,
                         (c.ExchangeRate, c.RateSource, c.RateDate or "", "")))
    rows.sort(key=lambda row: (row[0], row[1]))
    totals: Dict[str, Dict[str, int]] = {}
    for row in rows:
        ledger_totals = totals.setdefault(row[7], {})
        for pid, value in row[6].items():
            ledger_totals[pid] = ledger_totals.get(pid, 0) + value
    everyone = {pid for t in totals.values() for pid in t}
    extra = sorted(pid for pid in everyone if pid not in known)
    columns = _column_names(roster, extra)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    # The rate columns only when some row is in another currency: a one-currency group's
    # export keeps exactly Splitwise's shape.
    foreign = any(row[5] != currency for row in rows)
    writer.writerow([safe_cell(c) for c in FIXED_COLUMNS + list(columns.values()) +
                     (RATE_COLUMNS if foreign else [])])
    for date, _, description, category, cost, cost_currency, nets, ledger, rate in rows:
        writer.writerow([safe_cell(c) for c in [date, description, category,
                                                format_minor(cost, cost_currency),
                                                cost_currency]] +
                        [format_minor(nets.get(pid, 0), ledger) for pid in columns] +
                        ([safe_cell(rate[0]), rate[1], rate[2],
                          format_minor(rate[3], currency) if rate[3] != "" else ""]
                         if foreign else []))
    writer.writerow([])
    for ledger in [currency] + sorted(c for c in totals if c != currency):
        writer.writerow([today(), "Total balance", "", "", ledger] +
                        [format_minor(totals.get(ledger, {}).get(pid, 0), ledger)
                         for pid in columns])
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
    expenses, settlements, _ = _activity(access.group_id)
    return GroupExport(access, roster, expenses,
                       [GroupSettlement(s, access.group.Currency) for s in settlements],
                       balances.group_balances(access))
