"""The one parser: receipt text lines (top to bottom, one printed row each) -> fields.

Every engine that reads text (rapidocr, Tesseract, Textract's lines when its summary has no
total) ends here. Pure: no I/O, no clock; the hints stand in for what the group knows."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from app.money.currencies import CODES, MINOR_UNITS
from app.receipts.scan import keywords as kw
from app.money.amounts_and_dates import (Amount, FoundDate, currency_named, find_amounts,
                                         find_dates, strip_dates_and_times)
from app.receipts.scan.result import ScanHints, ScanResult
from app.receipts.scan.text import clean, fold, letters

# Codes named on their own (not next to an amount) that count as the receipt's currency:
# "ALL", "TOP" or "CUP" standing alone are words before they are currencies.
STANDALONE_CODES = frozenset({"EUR", "USD", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "SEK",
                              "NOK", "DKK", "PLN", "CZK", "HUF", "CNY", "HKD", "SGD", "INR",
                              "KRW", "MXN", "BRL", "ZAR", "TRY", "THB", "ILS", "RON"})
HEADER_LINES = 6
LEADING_COUNT = re.compile(r"^\d{1,3}\s*[x×]\s+(?=\D)", re.I)
# A row that only says how many of the item named on the row above: "2 x 0,99", "3 Stk x 1,20".
QUANTITY_ROW = re.compile(r"^\s*\d+(?:[.,]\d+)?\s*(?:x|stk\.?\s*x?|st\.?\s*x?|pcs\.?\s*x?|@|×)"
                          r"(?:\s*[\d.,]+)?\s*[A-Z]?\s*$", re.I)
MAX_SCANNED_ITEMS = 100
MAX_NAME = 80


@dataclass
class Line:
    index: int
    text: str
    folded: str
    amounts: List[Amount]
    dates: List[FoundDate]
    total: int = 0  # 2 strong total label, 1 plain total label, 0 none
    kind: Optional[str] = None  # SUBTOTAL, TAX, CHANGE, TENDER, DISCOUNT

    def money(self, currency: str) -> List[int]:
        """The amounts on this line that can be money of ``currency``: with its decimals, or
        whole with a currency mark, or whole in a currency without decimals (yen)."""
        whole_ok = MINOR_UNITS.get(currency, 2) == 0
        values = []
        for amount in self.amounts:
            if amount.has_decimals or amount.currency or whole_ok:
                value = amount.minor(currency)
                if value is not None:
                    values.append(value)
        return values


def _classify(line: Line) -> None:
    text = line.folded
    if kw.TOTAL_STRONG.search(text):
        line.total = 2
    elif kw.TOTAL.search(text):
        line.total = 1
    if kw.SUBTOTAL.search(text):
        line.kind = "SUBTOTAL"
    elif kw.CHANGE.search(text):
        line.kind = "CHANGE"
    elif kw.TENDER.search(text) and not line.total == 2:
        line.kind = "TENDER"
    elif kw.TAX.search(text) and not kw.TAX_INCLUDED.search(text):
        line.kind = "TAX"
    elif kw.DISCOUNT.search(text):
        line.kind = "DISCOUNT"


def detect_currency(lines: Sequence[str], hint: str) -> Tuple[str, bool]:
    """The receipt's currency (from marks next to amounts, then codes standing alone) and
    whether the receipt named it; else the hint."""
    marks: Counter = Counter()
    for text in lines:
        for amount in find_amounts(text):
            code = currency_named(amount.currency, hint)
            if code:
                marks[code] += 1
    if not marks:
        for text in lines:
            for word in text.replace(":", " ").split():
                if word in STANDALONE_CODES:
                    marks[word] += 1
    if not marks:
        return hint, False
    best = max(marks.values())
    winners = [code for code, n in marks.items() if n == best]
    return (hint if hint in winners else sorted(winners)[0]), True


def _lines(raw: Sequence[str], hints: ScanHints, currency: str) -> List[Line]:
    exponent = MINOR_UNITS.get(currency, 2)
    out = []
    for text in (clean(r) for r in raw):
        if not text:
            continue
        dates = find_dates(text, currency=hints.currency, expense_date=hints.date,
                           locale=hints.locale)
        amounts = find_amounts(strip_dates_and_times(text, dates), exponent)
        line = Line(len(out), text, fold(text), amounts, dates)
        _classify(line)
        out.append(line)
    return out


def _pick_total(lines: List[Line], currency: str) -> Tuple[Optional[int], float, Optional[int]]:
    """(total, confidence, index of its line). TOTAL-like lines first, the strongest label,
    then the largest amount among them; never a subtotal, tax, change or tendered line."""
    candidates = []
    for line in lines:
        if not line.total or line.kind in ("SUBTOTAL", "TAX", "CHANGE", "TENDER", "DISCOUNT"):
            continue
        values = line.money(currency)
        if not values and line.index + 1 < len(lines):
            after = lines[line.index + 1]  # the label on one row, its amount on the next
            if letters(after.text) <= 3 and not after.kind:
                values = after.money(currency)
        if values and values[-1] > 0:
            candidates.append((line.total, values[-1], line.index))
    if candidates:
        strength = max(c[0] for c in candidates)
        best = [c for c in candidates if c[0] == strength]
        chosen = max(best, key=lambda c: (c[1], c[2]))
        confidence = 0.9 if strength == 2 else 0.8
        if len({c[1] for c in best}) > 1:
            confidence -= 0.2
        return chosen[1], confidence, chosen[2]
    fallback = [(value, line.index) for line in lines if line.kind not in
                ("CHANGE", "TENDER", "TAX", "DISCOUNT") for value in line.money(currency)]
    if not fallback:
        return None, 0.0, None
    value, index = max(fallback)
    return value, 0.3, index


def _pick_date(lines: List[Line]) -> Tuple[Optional[str], float]:
    found = [d for line in lines for d in line.dates]
    if not found:
        return None, 0.0
    first = found[0]
    confidence = 0.9 if first.certain else 0.6
    if len({d.day for d in found}) > 1:
        confidence -= 0.2
    return first.day, confidence


def _pick_merchant(lines: List[Line], currency: str) -> Tuple[Optional[str], float, int]:
    """The first name-like line of the header (the lines above the first priced one)."""
    for line in lines[:HEADER_LINES]:
        if line.money(currency):
            break
        text = line.text.strip(" *-=#.:|_")
        if letters(text) < 2 or letters(text) < len(text.replace(" ", "")) * 0.5 or line.dates:
            continue
        if kw.NOT_MERCHANT.search(line.folded) or "@" in text:
            continue
        if kw.ADDRESS.search(line.folded) and any(ch.isdigit() for ch in text):
            continue
        return text[:MAX_NAME], (0.7 if line.index == 0 else 0.5), line.index
    return None, 0.0, -1


def _item_name(text: str) -> str:
    """The name without a leading count ("2 x Berliner" -> "Berliner")."""
    name = LEADING_COUNT.sub("", " ".join(text.split()).strip(" .:*-=\t"))
    return name[:MAX_NAME]


def _pick_items(lines: List[Line], currency: str, first: int, last: int) -> List[Tuple[str, int]]:
    """Named priced lines between the header and the total; a name alone followed by a
    quantity row ("2 x 0,99   1,98") takes that row's amount."""
    items: List[Tuple[str, int]] = []
    pending: Optional[str] = None
    for line in lines[first + 1:last]:
        if line.total or line.kind in ("SUBTOTAL", "TAX", "CHANGE", "TENDER") or line.dates:
            pending = None
            continue
        values = line.money(currency)
        money_amounts = [a for a in line.amounts if a.minor(currency) in values] if values else []
        if not values:
            name = _item_name(line.text)
            pending = name if letters(name) >= 2 and "%" not in name else None
            continue
        name = _item_name(line.text[:money_amounts[-1].start])
        value = values[-1]
        if line.kind == "DISCOUNT" and value > 0:
            value = -value
        if QUANTITY_ROW.match(name) or letters(name) < 2:
            if pending:  # "BROT" then "2 Stk x 0,99   1,98"
                items.append((pending, value))
            pending = None
            continue
        items.append((name, value))
        pending = None
    return items[:MAX_SCANNED_ITEMS]


def items_confidence(items, total: Optional[int], subtotals=frozenset()) -> float:
    """How far the items can be trusted: their sum equals the total (0.9), or a subtotal
    printed before tax (0.7); a mismatch is 0.3. Only ever a confidence: the total stands."""
    if not items:
        return 0.0
    spent = sum(amount for _, amount in items)
    if total is not None and spent == total:
        return 0.9
    if spent in subtotals:
        return 0.7
    return 0.3 if total is not None else 0.4


def parse_lines(raw_lines: Sequence[str], hints: ScanHints, engine: str = "text") -> ScanResult:
    """Fields from text lines. The items' sum is checked against the total: a mismatch
    lowers confidence.items and never changes the total."""
    hint = hints.currency if hints.currency in CODES else "EUR"
    currency, _named = detect_currency([clean(r) for r in raw_lines], hint)
    lines = _lines(raw_lines, hints, currency)
    total, total_confidence, total_index = _pick_total(lines, currency)
    day, date_confidence = _pick_date(lines)
    merchant, merchant_confidence, merchant_index = _pick_merchant(lines, currency)
    end = total_index if total_index is not None and total_confidence >= 0.5 else len(lines)
    items = _pick_items(lines, currency, merchant_index, end)
    return ScanResult(
        engine=engine, merchant=merchant, date=day, total=total, currency=currency,
        items=tuple(items),
        confidence={"merchant": merchant_confidence, "date": date_confidence,
                    "total": round(total_confidence, 2),
                    "items": items_confidence(items, total, _subtotals(lines, currency))})


def _subtotals(lines: List[Line], currency: str) -> frozenset:
    return frozenset(v for line in lines if line.kind == "SUBTOTAL" for v in line.money(currency))
