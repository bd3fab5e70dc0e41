"""Group export: a Splitwise-shaped CSV, or the whole group as JSON."""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Dict, List

from app.money.currencies import format_minor
from app.money.splits import kind_sign
from app.ledger import balances
from app.core.access import Access
from app.core.clock import today
from app.ledger.expense_body import ExpenseBody
from app.money.extras import extra_shares
from app.ledger.settlements import GroupSettlement
from app.recurring.templates import template_of
from models.groups import (CONVERSION_PREFIX, EXPENSE_PREFIX, RECURRING_PREFIX,
                           SETTLEMENT_PREFIX, Comment, Conversion, Expense, Participant,
                           RecurringExpense, Settlement)

# Spreadsheets run a cell starting with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
FIXED_COLUMNS = ["Date", "Description", "Category", "Cost", "Currency"]
# After the net columns: who paid, then "<name> paid" and "<name> owed" per participant.
# The splitwise-csv import stops reading member columns here.
PAYER_COLUMN = "Paid by"
# After the paid/owed columns: what each row is (EXPENSE, INCOME, SETTLEMENT, CONVERSION), so
# our own CSV import tells an income from an expense with the same cells turned round.
KIND_COLUMN = "Kind"
SETTLEMENT_KIND, CONVERSION_KIND = "SETTLEMENT", "CONVERSION"
# Last, and only when some row is in another currency than the group's.
RATE_COLUMNS = ["Exchange rate", "Rate source", "Rate date", "Group cost"]
# Every body field (app.ledger.expense_body.ATTRIBUTES) -> its CSV column, or None;
# tests/ledger/test_expense_body.py fails until a new field is named here. Payments and items
# become the per-participant net columns (balances.expense_nets), not a column of their own.
# Notes and extras are in the JSON export (the expense's reply schema) only: the CSV keeps the
# columns Splitwise exports, each participant's extra shares counted in their owed and net
# cells. An INCOME's Cost is negative (and its cells its net effects).
EXPORT = {"description": "Description", "category": "Category", "notes": None,
          "amount": "Cost", "payments": None, "items": None, "currency": "Currency",
          "exchange_rate": "Exchange rate", "rate_source": "Rate source",
          "rate_date": "Rate date", "group_amount": "Group cost", "kind": KIND_COLUMN,
          "extras": None}
# Categoryless expenses export under this category (Splitwise's default).
DEFAULT_CATEGORY = "General"


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


@dataclass(frozen=True)
class _Line:
    """One CSV row's facts. ``paid`` and ``owed`` are per participant, in ``ledger`` (the
    currency the row counts in: the group's for a converted row, its own for a kept one);
    their difference is the row's net cell. A settlement: the payer paid, the payee received."""

    date: str
    created_at: str
    description: str
    category: str
    cost: int
    cost_currency: str
    ledger: str
    payers: List[str]
    paid: Dict[str, int]
    owed: Dict[str, int]
    rate: tuple = ("", "", "", "")  # exchange rate, source, date, group cost
    kind: str = "EXPENSE"

    def net(self, pid: str) -> int:
        return self.paid.get(pid, 0) - self.owed.get(pid, 0)


def _sum(into: Dict[str, int], values: Dict[str, int]) -> None:
    for pid, value in values.items():
        into[pid] = into.get(pid, 0) + value


def _sides(nets: Dict[str, int]) -> tuple:
    """(paid, owed) of a row known by its nets: what raises a net was paid."""
    return ({p: v for p, v in nets.items() if v > 0}, {p: -v for p, v in nets.items() if v < 0})


def body_cells(body: ExpenseBody) -> Dict[str, object]:
    """The CSV columns of an expense's body (``EXPORT``)."""
    cells = {column: getattr(body, name) for name, column in EXPORT.items() if column}
    cells["Category"] = body.category or DEFAULT_CATEGORY
    cells[KIND_COLUMN] = body.kind_shown
    # Money the group received: a negative Cost, as Splitwise shows a refund.
    cells["Cost"] = kind_sign(body.kind) * body.amount
    if body.group_amount is not None:
        cells["Group cost"] = kind_sign(body.kind) * body.group_amount
    return {column: "" if value is None else value for column, value in cells.items()}


def _expense_line(e: Expense, main: str) -> _Line:
    body = ExpenseBody.from_row(e)
    cells = body_cells(body)
    converted = bool(body.converted)
    kept = None if converted or body.currency in (None, main) else body.currency

    # An INCOME's receivers "paid" minus what they received and its shares "owed" minus
    # what they own, so paid - owed is still the row's net effect on every column.
    sign = kind_sign(body.kind)

    def share(row) -> int:
        return sign * int(row.GroupAmount if converted else row.Amount)

    paid: Dict[str, int] = {}
    owed: Dict[str, int] = {}
    for payment in body.payments:
        _sum(paid, {payment.ParticipantId: share(payment)})
    for item in body.items:
        for split in item.Splits:
            _sum(owed, {split.ParticipantId: share(split)})
    for _, shares in extra_shares(body):
        for extra in shares:
            _sum(owed, {extra.participant_id: sign * int(extra.group_amount if converted
                                                         else extra.amount)})
    return _Line(e.Date, e.CreatedAt, cells["Description"], cells["Category"], cells["Cost"],
                 body.currency or main, kept or main, [p.ParticipantId for p in body.payments],
                 paid, owed, (cells["Exchange rate"], cells["Rate source"], cells["Rate date"],
                              cells["Group cost"]), cells[KIND_COLUMN])


def _settlement_line(s: Settlement, main: str, known: Dict[str, str]) -> _Line:
    label = f"{known.get(s.PayerId, balances.FORMER_PARTICIPANT)} paid " \
            f"{known.get(s.PayeeId, balances.FORMER_PARTICIPANT)}"
    main_nets, kept_nets = balances.split_nets(balances.stored_settlement_nets(s, main))
    ledger = next(iter(kept_nets), main)
    paid, owed = _sides(kept_nets.get(ledger, main_nets))
    return _Line(s.Date or s.CreatedAt[:10], s.CreatedAt, label, "Payment", int(s.Amount),
                 s.Currency or main, ledger, [s.PayerId], paid, owed,
                 (s.ExchangeRate or "", s.RateSource or "", s.RateDate or "",
                  "" if s.GroupAmount is None else s.GroupAmount), SETTLEMENT_KIND)


def _conversion_lines(c: Conversion, main: str) -> List[_Line]:
    """Two rows: the kept currency's nets leaving it, and the main currency's arriving."""
    main_nets, kept_nets = balances.split_nets(balances.conversion_nets(c))
    moved = -sum(v for v in kept_nets.get(c.Currency, {}).values() if v < 0)
    lines = []
    for ledger, nets in ((c.Currency, kept_nets.get(c.Currency, {})), (main, main_nets)):
        cost = moved if ledger == c.Currency else sum(v for v in main_nets.values() if v > 0)
        paid, owed = _sides(nets)
        lines.append(_Line(c.CreatedAt[:10], c.CreatedAt, f"Conversion {c.Currency} to {main}",
                           "Conversion", cost, ledger, ledger, [], paid, owed,
                           (c.ExchangeRate, c.RateSource, c.RateDate or "", ""),
                           CONVERSION_KIND))
    return lines


def export_csv(access: Access) -> str:
    """One row per expense, settlement and conversion with each participant's net effect in
    the currency the row counts in (the shape Splitwise exports), then who paid, then each
    participant's paid and owed (paid - owed = net on every row), then the rate columns if
    any row is in another currency; then a total line per currency."""
    currency = access.group.Currency
    roster = list(Participant.roster(access.group_id, consistent_read=True))
    expenses, settlements, conversions = _activity(access.group_id)
    known = {p.ParticipantId: p.DisplayName for p in roster}
    lines = [_expense_line(e, currency) for e in expenses]
    lines += [_settlement_line(s, currency, known) for s in settlements]
    lines += [line for c in conversions for line in _conversion_lines(c, currency)]
    lines.sort(key=lambda line: (line.date, line.created_at))
    paid_total: Dict[str, Dict[str, int]] = {}
    owed_total: Dict[str, Dict[str, int]] = {}
    for line in lines:
        _sum(paid_total.setdefault(line.ledger, {}), line.paid)
        _sum(owed_total.setdefault(line.ledger, {}), line.owed)
    everyone = {pid for side in (paid_total, owed_total) for t in side.values() for pid in t}
    columns = _column_names(roster, sorted(pid for pid in everyone if pid not in known))
    # The rate columns only when some row is in another currency: a one-currency group's
    # export keeps exactly its Splitwise shape.
    foreign = any(line.cost_currency != currency for line in lines)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    names = list(columns.values())
    writer.writerow([safe_cell(c) for c in FIXED_COLUMNS + names + [PAYER_COLUMN] +
                     [f"{name} {what}" for name in names for what in ("paid", "owed")] +
                     [KIND_COLUMN] + (RATE_COLUMNS if foreign else [])])

    def paid_owed(paid: Dict[str, int], owed: Dict[str, int], ledger: str) -> List[str]:
        return [format_minor(side.get(pid, 0), ledger) for pid in columns
                for side in (paid, owed)]

    for line in lines:
        payers = "; ".join(columns.get(pid, balances.FORMER_PARTICIPANT) for pid in line.payers)
        rate = line.rate
        writer.writerow([safe_cell(c) for c in [line.date, line.description, line.category,
                                                format_minor(line.cost, line.cost_currency),
                                                line.cost_currency]] +
                        [format_minor(line.net(pid), line.ledger) for pid in columns] +
                        [safe_cell(payers)] + paid_owed(line.paid, line.owed, line.ledger) +
                        [line.kind] + ([safe_cell(rate[0]), rate[1], rate[2],
                          format_minor(rate[3], currency) if rate[3] != "" else ""]
                         if foreign else []))
    writer.writerow([])
    for ledger in [currency] + sorted(c for c in paid_total if c != currency):
        paid, owed = paid_total.get(ledger, {}), owed_total.get(ledger, {})
        totals = {pid: paid.get(pid, 0) - owed.get(pid, 0) for pid in columns}
        writer.writerow([today(), "Total balance", "", "", ledger] +
                        [format_minor(totals[pid], ledger) for pid in columns] + [""] +
                        paid_owed(paid, owed, ledger))
    return out.getvalue()


@dataclass(frozen=True)
class GroupExport:
    """The whole group, each part dumped by its own reply schema (ExportSchema)."""

    group: Access
    participants: List[Participant]
    expenses: List[Expense]
    settlements: List[GroupSettlement]
    balances: balances.Balances
    comments: List[Comment]
    recurring: list  # app.recurring.templates.Template


def _comments(group_id: str, expenses: List[Expense]) -> List[Comment]:
    """Every live expense's comments, thread by thread in the expenses' order, oldest first
    (one Query over the expense rows; a comment whose expense is gone is left out)."""
    threads: Dict[str, List[Comment]] = {e.ExpenseId: [] for e in expenses}
    for comment in Comment.query(group_id, Comment.SK.startswith(EXPENSE_PREFIX),
                                 consistent_read=True):
        threads.get(comment.expense_id, []).append(comment)
    return [comment for thread in threads.values() for comment in thread]


def export_json(access: Access) -> GroupExport:
    """The whole group: head, participants, expenses, settlements, balances, comments and
    recurring templates."""
    roster = list(Participant.roster(access.group_id, consistent_read=True))
    expenses, settlements, _ = _activity(access.group_id)
    templates = RecurringExpense.query(access.group_id,
                                       RecurringExpense.SK.startswith(RECURRING_PREFIX),
                                       consistent_read=True)
    return GroupExport(access, roster, expenses,
                       [GroupSettlement(s, access.group.Currency) for s in settlements],
                       balances.group_balances(access), _comments(access.group_id, expenses),
                       [template_of(row) for row in templates])
