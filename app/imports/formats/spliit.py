"""Spliit's exports: the JSON (``/groups/<id>/expenses/export/json``) and the CSV.

JSON: ``{id, name, currency (a symbol), currencyCode?, participants: [{id, name}],
expenses: [{id, expenseDate, title, category: {grouping, name}, amount, originalAmount?,
originalCurrency?, conversionRate?, paidById, paidFor: [{participantId, shares}],
isReimbursement, splitMode}]}``; ``amount`` is minor units of the group currency, what
Spliit's balances count. Each member's share is computed with Spliit's own apportionment
(src/lib/shares.ts: ``getExpenseShares``) and recorded as an EXACT split, so every balance
matches Spliit's. An expense entered in another currency (``originalAmount`` minor units of
``originalCurrency``) becomes a converted row in that currency at Spliit's rate, its group
amount Spliit's ``amount`` (spliit_currency.py). A reimbursement to one member is a
settlement.

CSV: a BOM, then ``Date,Description,Category,Currency,Cost,Original cost,Original currency,
Conversion rate,Is Reimbursement,Split mode,<participant>...``; each participant cell is
their share, positive for the payer and negative for everyone else. A negative amount is
Spliit's income (its expense form's "Income"): imported as ``kind: INCOME``, the payer
having received it and each member owning their share."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from app.money.splits import MAX_AMOUNT, apportion
from app.imports.formats import spliit_currency
from app.imports.amounts import calendar_date, currency_code, to_minor, unescape
from app.imports.formats.text import (CellBudget, check_list, check_members, is_blank,
                                      json_document, records, require, text_field)
from app.imports.model import EXPENSE, SETTLEMENT, ImportFileError, Item, Parsed, Row

JSON_FORMAT, CSV_FORMAT = "spliit-json", "spliit-csv"
CSV_FIXED = ("Date", "Description", "Category", "Currency", "Cost", "Original cost",
             "Original currency", "Conversion rate", "Is Reimbursement", "Split mode")
SYMBOLS = {"€": "EUR", "$": "USD", "US$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR",
           "CHF": "CHF", "zł": "PLN", "kr": "SEK", "R$": "BRL", "C$": "CAD", "A$": "AUD",
           "₩": "KRW", "₺": "TRY", "₽": "RUB", "Kč": "CZK", "₴": "UAH"}


def _group_currency(code: Any, symbol: Any) -> Optional[str]:
    for candidate in (code, SYMBOLS.get(str(symbol or "").strip()), symbol):
        try:
            return currency_code(candidate, None)
        except ImportFileError:
            continue
    return None


# --- Spliit's share computation (src/lib/shares.ts), kept exact ----------------------------

def _fnv1a(text: str) -> int:
    value = 0x811C9DC5
    for char in text:
        for code in _utf16_units(char):
            value ^= code
            value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def _utf16_units(char: str) -> List[int]:
    """JavaScript's charCodeAt units of one character (surrogate pairs above U+FFFF)."""
    point = ord(char)
    if point < 0x10000:
        return [point]
    point -= 0x10000
    return [0xD800 + (point >> 10), 0xDC00 + (point & 0x3FF)]


def _apportion(amount: int, shares: List[int], offset: int) -> List[int]:
    """Largest remainder, ties broken by a rotation from ``offset`` (Spliit's apportion)."""
    count, total = len(shares), sum(shares)
    if not count or total == 0:
        return [0] * count
    amounts, remainders = [], []
    for index, share in enumerate(shares):
        exact = amount * share
        base = exact // total
        amounts.append(base)
        remainders.append((index, exact - base * total))
    remaining = amount - sum(amounts)
    remainders.sort(key=lambda entry: (-entry[1], (entry[0] - offset + count) % count))
    for index, _ in remainders[:remaining]:
        amounts[index] += 1
    return amounts


def expense_shares(expense_id: Optional[str], amount: int, split_mode: str,
                   paid_for: List[tuple]) -> Dict[str, int]:
    """participantId -> share, exactly as Spliit's getExpenseShares computes it."""
    ordered = sorted(paid_for, key=lambda entry: entry[0])
    weights = [1 if split_mode == "EVENLY" else int(shares) for _, shares in ordered]
    offset = _fnv1a(expense_id) % len(ordered) if expense_id and ordered else 0
    return {pid: share for (pid, _), share in
            zip(ordered, _apportion(amount, weights, offset), strict=True)}


# --- JSON ----------------------------------------------------------------------------------

def parse_json(text: str) -> Parsed:
    document = json_document(text)
    require(isinstance(document, dict) and isinstance(document.get("participants"), list)
            and isinstance(document.get("expenses"), list), 1,
            "Not a Spliit export: expected an object with participants and expenses.")
    check_members(len(document["participants"]), 1)
    check_list(document["expenses"])
    members = {}
    for position, person in enumerate(document["participants"], start=1):
        require(isinstance(person, dict) and isinstance(person.get("id"), (str, int))
                and person.get("name"), position, "A participant needs an id and a name.")
        members[str(person["id"])] = unescape(text_field(person["name"], position,
                                                         "A participant's name")).strip()
    currency = _group_currency(document.get("currencyCode"), document.get("currency"))
    parsed = Parsed(format=JSON_FORMAT, members=members, rows=[],
                    name=text_field(document.get("name"), 1, "The group's name") or None,
                    currency=currency)
    budget = CellBudget()
    for position, expense in enumerate(document["expenses"], start=1):
        if isinstance(expense, dict) and isinstance(expense.get("paidFor"), list):
            budget.spend(len(expense["paidFor"]), position)
        made = len(parsed.rows)
        _json_expense(parsed, position, expense, currency)
        if len(parsed.rows) > made:  # spent (or received) in another currency?
            spliit_currency.convert(parsed, parsed.rows[-1], spliit_currency.original_of(
                parsed, position, _unsigned(expense), currency), currency)
    return parsed


def _unsigned(expense: dict) -> dict:
    """An income's original amount (negative, as Spliit stores it) as the positive amount
    our income row records."""
    original = expense.get("originalAmount")
    if expense["amount"] < 0 and isinstance(original, int) and not isinstance(original, bool):
        return {**expense, "originalAmount": -original}
    return expense


def _unsigned_cells(fixed: Dict[str, str]) -> Dict[str, str]:
    """An income row's Original cost (negative, as Spliit writes it) without its sign."""
    original = fixed.get("Original cost", "").strip()
    if fixed.get("Cost", "").strip().startswith("-") and original.startswith("-"):
        return {**fixed, "Original cost": original[1:]}
    return fixed


def _notes(expense: dict, line: int) -> Optional[str]:
    """Spliit's expense ``notes`` (free text, or null)."""
    return unescape(text_field(expense.get("notes"), line, "notes")).strip() or None


def _json_expense(parsed: Parsed, line: int, expense: Any, currency: Optional[str]) -> None:
    require(isinstance(expense, dict), line, "An expense must be an object.")
    amount = expense.get("amount")
    require(isinstance(amount, int) and not isinstance(amount, bool)
            and abs(amount) <= MAX_AMOUNT, line,
            f"amount must be an integer of minor units, at most {MAX_AMOUNT}.")
    payer = str(expense.get("paidById") or "")
    require(payer in parsed.members, line, f"paidById {payer!r} is not a participant.")
    paid_for = []
    entries = expense.get("paidFor") or []
    require(isinstance(entries, list) and all(isinstance(e, dict) for e in entries), line,
            "paidFor must be a list of objects.")
    for entry in entries:
        pid = str(entry.get("participantId") or "")
        require(pid in parsed.members, line, f"paidFor names {pid!r}, not a participant.")
        shares = entry.get("shares", 1)
        require(isinstance(shares, int) and not isinstance(shares, bool)
                and 0 <= shares <= MAX_AMOUNT, line,
                f"shares must be an integer from 0 to {MAX_AMOUNT}.")
        paid_for.append((pid, shares))
    date = calendar_date(expense.get("expenseDate") or expense.get("createdAt"), line)
    title = unescape(text_field(expense.get("title"), line, "title")).strip() or "Expense"
    category = expense.get("category") or {}
    require(isinstance(category, dict), line, "category must be an object.")
    category = text_field(category.get("name"), line, "The category's name") or None
    row_currency = currency or "EUR"
    if not paid_for or amount == 0:
        parsed.skip(line, "An expense paid for nobody, or of amount 0: skipped.")
        return
    require(isinstance(expense.get("id"), (str, type(None))), line, "id must be text.")
    shares = expense_shares(expense.get("id"), amount, expense.get("splitMode") or "EVENLY",
                            paid_for)
    if expense.get("isReimbursement") and len(paid_for) == 1 and paid_for[0][0] != payer \
            and amount > 0:
        parsed.rows.append(Row(line=line, kind=SETTLEMENT, date=date, currency=row_currency,
                               payer=payer, payee=paid_for[0][0], amount=amount,
                               note=title))
        return
    if amount > 0:
        splits = [(pid, share) for pid, share in shares.items() if share]
        parsed.rows.append(Row(line=line, kind=EXPENSE, date=date, currency=row_currency,
                               description=title, category=category,
                               payments=[(payer, amount)],
                               items=[Item(title, amount, "EXACT", splits)],
                               notes=_notes(expense, line)))
        return
    # A negative amount is Spliit's income (expense-form.tsx): the payer received -amount
    # and each share (negative, getExpenseShares) is what its member owns of it.
    parsed.rows.append(_income_row(line, date, row_currency, title, category, payer,
                                   -amount, {pid: -share for pid, share in shares.items()},
                                   notes=_notes(expense, line)))


def _income_row(line: int, date: str, currency: str, title: str, category: Optional[str],
                receiver: str, amount: int, owned: Dict[str, int], *,
                notes: Optional[str] = None) -> Row:
    """Spliit's income (a negative amount) as ours: ``receiver`` received ``amount``, each
    member owns their (positive) part of it."""
    return Row(line=line, kind=EXPENSE, date=date, currency=currency, description=title,
               category=category, payments=[(receiver, amount)],
               items=[Item(title, amount, "EXACT",
                           [(pid, part) for pid, part in owned.items() if part])],
               notes=notes, income=True)


# --- CSV -----------------------------------------------------------------------------------

def parse_csv(text: str) -> Parsed:
    parsed: Optional[Parsed] = None
    keys: List[str] = []
    budget = CellBudget()
    for line, cells in records(text):
        if is_blank(cells):
            continue
        if parsed is None:
            header = [unescape(cell).strip() for cell in cells]
            for position, name in enumerate(CSV_FIXED):
                if position >= len(header) or header[position] != name:
                    raise ImportFileError(line, f"Column {position + 1} should be {name!r} "
                                                f"(Spliit's CSV header).")
            names = header[len(CSV_FIXED):]
            check_members(len(names), line)
            require(bool(names) and all(names), line, "The header names no participants.")
            keys = [f"c{index}" for index in range(len(names))]
            parsed = Parsed(format=CSV_FORMAT, members=dict(zip(keys, names, strict=True)),
                            rows=[])
            continue
        budget.spend(len(keys), line)
        made = len(parsed.rows)
        _csv_row(parsed, line, cells, keys)
        if len(parsed.rows) > made:  # spent in another currency?
            spliit_currency.convert(parsed, parsed.rows[-1], spliit_currency.original_of_cells(
                parsed, line, _unsigned_cells(dict(zip(CSV_FIXED, cells, strict=False))),
                parsed.currency), parsed.currency)
    if parsed is None:
        raise ImportFileError(1, "The file is empty.")
    return parsed


def _csv_row(parsed: Parsed, line: int, cells: List[str], keys: List[str]) -> None:
    width = len(CSV_FIXED) + len(keys)
    require(len(cells) >= width, line, f"The row has {len(cells)} cells; the header has "
                                       f"{width}.")
    fixed = dict(zip(CSV_FIXED, cells, strict=False))
    currency = _group_currency(fixed["Currency"], fixed["Currency"])
    require(currency is not None, line, f"Unknown currency {fixed['Currency']!r}.")
    # The Currency column is the group's (rows spent in another one say so in Original
    # currency): the main currency, even when most rows were spent abroad.
    parsed.currency = parsed.currency or currency
    date = calendar_date(fixed["Date"], line)
    cost, _ = to_minor(fixed["Cost"], currency, line, "Cost")
    title = unescape(fixed["Description"]).strip() or "Expense"
    category = unescape(fixed["Category"]).strip() or None
    values = {}
    for key, cell in zip(keys, cells[len(CSV_FIXED):width], strict=True):
        values[key], _ = to_minor(cell or "0", currency, line, f"The cell of "
                                                              f"{parsed.members[key]}")
    if cost == 0:
        parsed.skip(line, "An expense of amount 0: skipped.")
        return
    if cost < 0:
        # Spliit's income: the CSV writes each share times -1 except the payer's, so the
        # receiver's cell is their own (negative) share and everyone else's is positive.
        flipped = {key: -value for key, value in values.items()}
        receiver = _csv_payer(parsed, line, flipped)
        parsed.rows.append(_income_row(line, date, currency, title, category, receiver, -cost,
                                       _owed(parsed, line, -cost, flipped,
                                             fixed["Split mode"])))
        return
    payer = _csv_payer(parsed, line, values)
    owed = _owed(parsed, line, cost, values, fixed["Split mode"])
    if fixed["Is Reimbursement"].strip().lower() == "yes" and len(owed) == 1 \
            and payer not in owed:
        parsed.rows.append(Row(line=line, kind=SETTLEMENT, date=date, currency=currency,
                               payer=payer, payee=next(iter(owed)), amount=cost, note=title))
        return
    parsed.rows.append(Row(line=line, kind=EXPENSE, date=date, currency=currency,
                           description=title, category=category, payments=[(payer, cost)],
                           items=[Item(title, cost, "EXACT", list(owed.items()))]))


def _owed(parsed: Parsed, line: int, cost: int, values: Dict[str, int],
          split_mode: str) -> Dict[str, int]:
    """Each participant's share. Spliit's CSV route before its "Shares" change (54207f4)
    rounded each share on its own, so the cells of a real export can miss the Cost by up to
    half a unit per participant: a difference of up to one unit per participant is kept at
    the Cost and re-apportioned by the split rule (Evenly: equal parts; otherwise in
    proportion to the cells), with a warning; a larger one is not Spliit's rounding."""
    owed = {key: abs(value) for key, value in values.items() if value}
    total = sum(owed.values())
    if total == cost:
        return owed
    require(bool(owed) and abs(total - cost) <= len(owed), line,
            f"The participant cells add up to {total}, not the Cost {cost}.")
    evenly = unescape(split_mode).strip().casefold() in ("evenly", "")
    parts = apportion(cost, [1] * len(owed) if evenly else list(owed.values()))
    parsed.warn(line, f"The participant cells add up to {total}, not the Cost {cost} (Spliit "
                      f"rounded each share on its own): the Cost is kept and split "
                      f"{'evenly' if evenly else 'in proportion to the cells'}.")
    return {key: part for key, part in zip(owed, parts, strict=True) if part}


def _csv_payer(parsed: Parsed, line: int, values: Dict[str, int]) -> str:
    """The payer: the one positive cell; if the payer owes nothing their cell is 0, and the
    CSV cannot tell which 0 it is when there are several (the JSON export can)."""
    positive = [key for key, value in values.items() if value > 0]
    require(len(positive) <= 1, line, "More than one positive cell: Spliit has one payer.")
    if positive:
        return positive[0]
    zeros = [key for key, value in values.items() if value == 0]
    require(bool(zeros), line, "No cell can be the payer's.")
    if len(zeros) > 1:
        parsed.warn(line, f"Spliit's CSV does not say who paid this row (the payer's own "
                          f"share is 0): assigned to {parsed.members[zeros[0]]}. The JSON "
                          f"export names the payer.")
    return zeros[0]
