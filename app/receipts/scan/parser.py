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
from app.money.amounts_and_dates import (CROWN, DOLLAR, DOLLARS, SYMBOLS, YEN, Amount,
                                         FoundDate, currency_named, find_amounts, find_dates,
                                         strip_dates_and_times)
from app.receipts.draft_input import EXTRA_KINDS
from app.receipts.scan.result import ScanHints, ScanResult
from app.receipts.scan.text import clean, fold, keyword_pattern, letters

# Codes named on their own (not next to an amount) that count as the receipt's currency:
# "ALL", "TOP" or "CUP" standing alone are words before they are currencies.
STANDALONE_CODES = frozenset({"EUR", "USD", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "SEK",
                              "NOK", "DKK", "PLN", "CZK", "HUF", "CNY", "HKD", "SGD", "INR",
                              "KRW", "MXN", "BRL", "ZAR", "TRY", "THB", "ILS", "RON",
                              "MYR", "IDR", "PHP", "VND", "UAH", "RUB", "ISK", "BGN", "TWD"})
# Currencies whose receipts print whole units although ISO 4217 gives them cents
# ("Rp 25.000", "4 990 Ft"): a bare whole number there can be money.
PRINTED_WHOLE = frozenset({"IDR", "HUF", "COP", "TWD", "KZT", "UZS", "LKR", "PKR", "MMK"})
# The words that tell which crown, dollar or yen a receipt's "kr", "$" or "¥" is, when the
# group's own currency is none of them: the receipt's language (Danish prints "i alt", a
# Norwegian "mva", kana only Japanese) or a code it prints elsewhere.
MARKER_EVIDENCE = {
    CROWN: (("DKK", keyword_pattern(["i alt", "at betale", "beløb", "byttepenge"])),
            ("NOK", keyword_pattern(["mva", "å betale", "totalt å betale", "vekslepenger"])),
            ("SEK", keyword_pattern(["att betala", "summa", "kvitto", "växel", "totalt sek"])),
            ("ISK", keyword_pattern(["samtals", "vsk", "til greiðslu"])),
            ("CZK", keyword_pattern(["celkem", "dph", "k úhradě", "účtenka"]))),
    YEN: (("JPY", re.compile(r"[\u3040-\u30ff]|円|税込|領収")),
          ("CNY", re.compile(r"元|合计|总计|应付|实付|找零|收银|发票|人民币"))),
    DOLLAR: (("MXN", keyword_pattern(["m.n.", "moneda nacional"])),),
}
MARKERS = {DOLLAR: DOLLARS, CROWN: frozenset({"SEK", "NOK", "DKK", "ISK", "CZK"}),
           YEN: frozenset({"JPY", "CNY"})}
HEADER_LINES = 6
LEADING_COUNT = re.compile(r"^\d{1,3}\s*[x×]\s+(?=\D)", re.I)
# A row that only says how many of the item named on the row above: "2 x 0,99", "3 Stk x 1,20".
QUANTITY_ROW = re.compile(r"^\s*\d+(?:[.,]\d+)?\s*(?:x|stk\.?\s*x?|st\.?\s*x?|pcs\.?\s*x?|@|×)"
                          r"(?:\s*[\d.,]+)?\s*[A-Z]?\s*$", re.I)
MAX_SCANNED_ITEMS = 100
# Lines whose amount is never the total (the first: a subtotal, still a fallback's guess).
NOT_TOTAL = ("SUBTOTAL", "TAX", "TIP", "SERVICE", "CHANGE", "TENDER", "DISCOUNT")
MAX_NAME = 80


@dataclass
class Line:
    index: int
    text: str
    folded: str
    amounts: List[Amount]
    dates: List[FoundDate]
    total: int = 0  # 2 strong total label, 1 plain total label, 0 none
    kind: Optional[str] = None  # SUBTOTAL, TAX, TIP, SERVICE, CHANGE, TENDER, DISCOUNT

    def money(self, currency: str) -> List[int]:
        """The amounts on this line that can be money of ``currency``: with its decimals, or
        whole with a currency mark, or whole in a currency without decimals (yen)."""
        whole_ok = MINOR_UNITS.get(currency, 2) == 0 or currency in PRINTED_WHOLE
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
    elif kw.TIP.search(text):
        line.kind = "TIP"
    elif kw.SERVICE.search(text) and not kw.TAX.search(text):
        line.kind = "SERVICE"
    elif kw.TAX.search(text) and not kw.TAX_INCLUDED.search(text):
        line.kind = "TAX"
    elif kw.DISCOUNT.search(text):
        line.kind = "DISCOUNT"


def _standalone_codes(lines: Sequence[str]) -> Counter:
    found: Counter = Counter()
    for text in lines:
        for word in re.split(r"[\s:()\[\]/]+", text):
            if word in STANDALONE_CODES:
                found[word] += 1
    return found


def resolve_marker(marker: str, lines: Sequence[str], hint: str) -> Optional[str]:
    """The currency a shared symbol ("$", "kr", "¥") means on this receipt: a code of its
    family printed elsewhere, else the receipt's language, else the group's own (when it is
    of the family), else currency_named's default."""
    family = MARKERS[marker]
    codes = [code for code, _ in _standalone_codes(lines).most_common() if code in family]
    if codes:
        return codes[0]
    folded = fold(" | ".join(lines))
    for code, evidence in MARKER_EVIDENCE[marker]:
        if evidence.search(folded):
            return code
    return currency_named(marker, hint)


def detect_currency(lines: Sequence[str], hint: str) -> Tuple[str, bool]:
    """The receipt's currency (from marks next to amounts, then codes standing alone) and
    whether the receipt printed one; when it printed none, the hint (the group's), and
    False so the draft can say so."""
    marks: Counter = Counter()
    for text in lines:
        for amount in find_amounts(text):
            written = amount.currency
            if written is not None and SYMBOLS.get(written) in MARKERS:
                code = resolve_marker(SYMBOLS[written], lines, hint)
            else:
                code = currency_named(written, hint)
            if code:
                marks[code] += 1
    if not marks:
        marks = _standalone_codes(lines)
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
        if not line.total or line.kind in NOT_TOTAL:
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
    fallback = [(value, line.index) for line in lines if line.kind not in NOT_TOTAL[1:]
                for value in line.money(currency)]
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


def _extra(line: Line, value: int) -> Optional[Tuple[str, int, str]]:
    """A tax, tip, service or discount line as an extra (a discount, or any line printed
    negative, takes money off)."""
    kind = line.kind if line.kind in EXTRA_KINDS else "DISCOUNT" if value < 0 else None
    if kind is None:
        return None
    name = _item_name(line.text[:line.amounts[-1].start] if line.amounts else line.text)
    name = re.sub(r"\s*\d+(?:[.,]\d+)?\s*%.*$", "", name).strip(" .:*-=") or name
    amount = -abs(value) if kind == "DISCOUNT" else abs(value)
    return (name if letters(name) >= 2 else kind.title())[:MAX_NAME], amount, kind


def _pick_items(lines: List[Line], currency: str, first: int, last: int):
    """Named priced lines between the header and the total, and the tax, tip, service and
    discount lines among them (the extras); a name alone followed by a quantity row
    ("2 x 0,99   1,98") takes that row's amount."""
    items: List[Tuple[str, int]] = []
    extras: List[Tuple[str, int, str]] = []
    pending: Optional[str] = None
    for line in lines[first + 1:last]:
        if line.total or line.kind in ("SUBTOTAL", "CHANGE", "TENDER") or line.dates:
            pending = None
            continue
        values = line.money(currency)
        money_amounts = [a for a in line.amounts if a.minor(currency) in values] if values else []
        if not values:
            name = _item_name(line.text)
            pending = name if letters(name) >= 2 and "%" not in name and not line.kind \
                else None
            continue
        name = _item_name(line.text[:money_amounts[-1].start])
        value = values[-1]
        extra = _extra(line, value)
        if extra is not None:
            if value:
                extras.append(extra)
            pending = None
            continue
        if QUANTITY_ROW.match(name) or letters(name) < 2:
            if pending:  # "BROT" then "2 Stk x 0,99   1,98"
                items.append((pending, value))
            pending = None
            continue
        items.append((name, value))
        pending = None
    return items[:MAX_SCANNED_ITEMS], extras[:MAX_SCANNED_ITEMS]


def reconcile_extras(items, extras, total: Optional[int], subtotals=frozenset()):
    """The extras that apply: all of them when the items and extras add up to the total
    (a subtotal standing in for the items when they do not), else without the taxes (a
    tax line printed on a receipt whose prices include it, as most of the world prints),
    else the tips, service and discounts alone (never a guess at more)."""
    if total is None:
        return tuple(extras)
    untaxed = tuple(e for e in extras if e[2] != "TAX")
    for base in (sum(amount for _, amount in items), *sorted(subtotals)):
        if base + sum(e[1] for e in extras) == total:
            return tuple(extras)
        if base + sum(e[1] for e in untaxed) == total:
            return untaxed
    return untaxed


def items_confidence(items, total: Optional[int], subtotals=frozenset(), extras=()) -> float:
    """How far the items can be trusted: their sum (with the extras that apply) equals the
    total (0.9), or a subtotal printed before tax (0.7); a mismatch is 0.3. Only ever a
    confidence: the total stands."""
    if not items:
        return 0.0
    spent = sum(amount for _, amount in items)
    if total is not None and spent + sum(e[1] for e in extras) == total:
        return 0.9
    if spent in subtotals:
        return 0.7
    return 0.3 if total is not None else 0.4


def parse_lines(raw_lines: Sequence[str], hints: ScanHints, engine: str = "text") -> ScanResult:
    """Fields from text lines. The items' sum is checked against the total: a mismatch
    lowers confidence.items and never changes the total."""
    hint = hints.currency if hints.currency in CODES else "EUR"
    currency, printed = detect_currency([clean(r) for r in raw_lines], hint)
    lines = _lines(raw_lines, hints, currency)
    total, total_confidence, total_index = _pick_total(lines, currency)
    day, date_confidence = _pick_date(lines)
    merchant, merchant_confidence, merchant_index = _pick_merchant(lines, currency)
    end = total_index if total_index is not None and total_confidence >= 0.5 else len(lines)
    items, extras = _pick_items(lines, currency, merchant_index, end)
    subtotals = _subtotals(lines, currency)
    extras = reconcile_extras(items, extras, total, subtotals)
    return ScanResult(
        engine=engine, merchant=merchant, date=day, total=total, currency=currency,
        currency_printed=printed, items=tuple(items), extras=extras,
        confidence={"merchant": merchant_confidence, "date": date_confidence,
                    "total": round(total_confidence, 2),
                    "items": items_confidence(items, total, subtotals, extras)})


def _subtotals(lines: List[Line], currency: str) -> frozenset:
    return frozenset(v for line in lines if line.kind == "SUBTOTAL" for v in line.money(currency))
