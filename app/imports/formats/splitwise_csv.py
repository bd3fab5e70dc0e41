"""Splitwise's "Export as spreadsheet" CSV, as Splitwise writes it in any language.

``Date,Description,Category,Cost,Currency,<member>...`` (headers in the exporter's language:
columns are read by position, member names from the header), optionally after a one-line
preamble ("Note: does not include group expenses"), blank rows anywhere, each member cell
paid - owed for that row, ``Payment`` rows (the category in the exporter's language) for
settle-ups, and one ``Total balance`` row per currency at the end (told apart by its empty
Category and Cost). Our own CSV export has the same shape followed by a ``Paid by`` column,
paid/owed columns and a Kind column, which this reader stops at. A row with a negative Cost
(a refund; our export's INCOME) is imported as ``kind: INCOME``: the members whose cells
are negative received it, the cells are its net effects."""
from __future__ import annotations

from typing import Dict, List

from app.imports import reconstruct
from app.imports.amounts import calendar_date, currency_code, to_minor, unescape
from app.imports.formats.text import (CellBudget, check_members, check_rows, is_blank, records,
                                      require)
from app.imports.model import ImportFileError, Parsed
from app.imports.export import PAYER_COLUMN as OUR_PAYER_COLUMN

FORMAT = "splitwise-csv"
FIXED = ("Date", "Description", "Category", "Cost", "Currency")
# Splitwise's settle-up category in the languages it exports in (casefolded).
PAYMENT_WORDS = frozenset(word.casefold() for word in (
    "Payment", "Zahlung", "Paiement", "Pago", "Pagamento", "Betaling", "Betalning",
    "Płatność", "Platba", "Platební", "Платеж", "Платёж", "Ödeme", "Maksu", "Plačilo",
    "Plata", "Plată", "Πληρωμή", "תשלום", "دفعة", "付款", "支付", "支払い", "결제",
    "Thanh toán", "Pembayaran", "Fizetés", "Betalinger"))


def _header(line: int, cells: List[str]) -> Dict[str, str]:
    """member key -> name from the header (a key per column, so two Anns stay two)."""
    names = [unescape(cell).strip() for cell in cells]
    if OUR_PAYER_COLUMN in names[len(FIXED):]:
        names = names[:names.index(OUR_PAYER_COLUMN, len(FIXED))]
    require(len(names) > len(FIXED), line,
            "The header needs Date, Description, Category, Cost, Currency and a column per "
            "member.")
    check_members(len(names) - len(FIXED), line)
    for position, name in enumerate(names[:len(FIXED)]):
        # Positions are what count, but an English header in the wrong order is a sure sign
        # of another app's file.
        if name in FIXED and FIXED.index(name) != position:
            raise ImportFileError(line, f"Column {position + 1} is {name!r}; Splitwise puts "
                                        f"{FIXED[position]!r} there.")
        require(bool(name), line, f"Header column {position + 1} is empty.")
    members = {}
    for index, name in enumerate(names[len(FIXED):], start=len(FIXED)):
        require(bool(name), line, f"Header column {index + 1} (a member) is empty.")
        members[f"c{index}"] = name
    return members


def parse(text: str) -> Parsed:
    parsed = Parsed(format=FORMAT, members={}, rows=[])
    header_line = None
    keys: List[str] = []
    budget = CellBudget()
    for line, cells in records(text):
        if is_blank(cells):
            continue
        if header_line is None:
            if len(cells) < len(FIXED) + 1 and not parsed.rows:
                continue  # the one-line preamble Splitwise writes above some exports
            parsed.members = _header(line, cells)
            keys = list(parsed.members)
            header_line = line
            continue
        budget.spend(len(keys), line)
        _row(parsed, line, cells, keys)
    if header_line is None:
        raise ImportFileError(1, "No Splitwise header (Date, Description, Category, Cost, "
                                 "Currency, members...) found.")
    return parsed


def _row(parsed: Parsed, line: int, cells: List[str], keys: List[str]) -> None:
    width = len(FIXED) + len(keys)
    require(len(cells) >= width, line, f"The row has {len(cells)} cells; the header has "
                                       f"{width}.")
    check_rows(len(parsed.rows) + 1, line)
    date_cell, description, category, cost_cell, currency_cell = cells[:len(FIXED)]
    currency = currency_code(currency_cell, line)
    nets = {}
    for key, cell in zip(keys, cells[len(FIXED):width], strict=True):
        value, exact = to_minor(cell or "0", currency, line, f"The cell of {parsed.members[key]}")
        require(exact, line, f"{parsed.members[key]}'s cell {cell!r} has more decimals than "
                             f"{currency} has.")
        nets[key] = value
    if not category.strip() and not cost_cell.strip():
        parsed.totals[currency] = (line, nets)  # a Total balance row
        return
    date = calendar_date(date_cell, line)
    cost, _ = to_minor(cost_cell, currency, line, "Cost")
    description = unescape(description).strip()
    category = unescape(category).strip() or None
    if category and category.casefold() in PAYMENT_WORDS:
        settlement = reconstruct.settlement_from_nets(line, nets, date=date, currency=currency,
                                                      description=description)
        if settlement is not None:
            parsed.rows.append(settlement)
            return
        parsed.warn(line, "A payment between more than two members: imported as an expense.")
    # A negative Cost is money the group received (a refund; our own export's INCOME rows):
    # the same reconstruction with every cell turned round, recorded as an income.
    income = cost < 0
    row, warning = reconstruct.expense_from_nets(
        line, -cost if income else cost, {key: -value for key, value in nets.items()}
        if income else nets, date=date, currency=currency,
        description=description or "Expense", category=category)
    if row is not None:
        row.income = income
    if row is None:
        parsed.skip(line, warning)
        return
    if warning:
        parsed.warn(line, warning)
    parsed.rows.append(row)
