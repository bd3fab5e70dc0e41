"""Amounts as receipts print them, in many locales, to integer minor units.

``1.234,56`` and ``1,234.56`` (the last mark is the decimal one), ``1 234,56`` and
``1'234.56`` (space and apostrophe grouping), ``12.50 €``, ``¥1200``, ``1,200円``,
``EUR 12,50``, ``2,00-`` (a discount). Separators are read here; the decimal -> minor units
step is app.money.currencies.parse_minor, the one place that does it."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional

from app.money.currencies import CODES, MINOR_UNITS, parse_minor

DOLLAR, CROWN, YEN = "$", "kr", "¥"
# Longest first in the pattern, so "US$" wins over "$" and "R$" over "$".
SYMBOLS = {"€": "EUR", "£": "GBP", "円": "JPY", "元": "CNY", "원": "KRW", "₹": "INR", "₩": "KRW",
           "₽": "RUB", "₺": "TRY", "₪": "ILS", "฿": "THB", "₫": "VND", "₱": "PHP",
           "zł": "PLN", "Kč": "CZK", "Ft": "HUF", "R$": "BRL", "US$": "USD", "A$": "AUD",
           "C$": "CAD", "S$": "SGD", "HK$": "HKD", "NZ$": "NZD", "Fr.": "CHF", "$": DOLLAR,
           "kr.": CROWN, "kr": CROWN, "¥": YEN}
DOLLARS = frozenset({"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "TWD"})
CROWNS = frozenset({"SEK", "NOK", "DKK", "ISK"})
YENS = frozenset({"JPY", "CNY"})



def _symbol_pattern(symbol: str) -> str:
    """A symbol, kept from the middle of a word when it is made of letters ("kr" in "Dukr")."""
    pattern = re.escape(symbol)
    if symbol[0].isascii() and symbol[0].isalpha():
        pattern = r"(?<![^\W\d_])" + pattern
    if symbol[-1].isascii() and symbol[-1].isalpha():
        pattern += r"(?![^\W\d_])"
    return pattern


_SYMBOL = "|".join(_symbol_pattern(s) for s in sorted(SYMBOLS, key=len, reverse=True))
_CODE = r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])"
_MARK = rf"(?:{_SYMBOL}|{_CODE})"
_GROUPED = r"\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,3})?"
# A plain space groups only before a decimal part ("1 234,56": "2 150" is a count and a
# price); a no-break or narrow space, or an apostrophe (Swiss "1'250"), always groups.
_SPACED = (r"\d{1,3}(?: \d{3})+[.,]\d{1,3}"
           r"|\d{1,3}(?:[\u00a0\u202f']\d{3})+(?:[.,]\d{1,3})?")
_NUMBER = rf"{_SPACED}|{_GROUPED}|\d{{1,12}}(?:[.,]\d{{1,3}})?"
AMOUNT = re.compile(
    rf"(?<![\d.,/:])(?<!\d[-−])(?P<sign>[-−])?\s?(?:(?P<pre>{_MARK})\s?(?P<sign2>[-−])?)?"
    rf"(?P<num>{_NUMBER})(?![\d%:/])(?!\s?[.,]\d)(?![-−]\d)"
    rf"(?:\s?(?P<post>{_MARK}))?(?P<trail>-(?!\d))?")
# Whole numbers that count things, not money: "3点", "3 Stk", "2 x"; and percentages.
_COUNT_AFTER = re.compile(r"\s*(?:点|個|pcs\b|stk\b|st\b|x\b|×|@|items?\b|artikel\b)", re.I)
_PERCENT_AFTER = re.compile(r"\s?%")


@dataclass(frozen=True)
class Amount:
    """One amount in a line: its canonical decimal text, sign, the currency named next to it
    (None: bare number) and where it was in the line."""

    text: str  # "1234.56", "1200"
    negative: bool
    marker: Optional[str]  # an ISO code, or DOLLAR / CROWN / YEN to resolve with the hint
    start: int
    end: int

    @property
    def has_decimals(self) -> bool:
        return "." in self.text

    def minor(self, currency: str) -> Optional[int]:
        """Integer minor units of ``currency`` (None when it has more decimals than that)."""
        text = self.text
        if MINOR_UNITS.get(currency, 2) == 0 and "." in text and not text.split(".")[1].strip("0"):
            text = text.split(".")[0]  # "1200.00" on a yen receipt is 1200
        try:
            value = parse_minor(text, currency)
        except ValueError:
            return None
        return -value if self.negative else value


def canonical(number: str, exponent: int = 2) -> Optional[str]:
    """``"1.234,56"`` -> ``"1234.56"``; ``"1,200"`` -> ``"1200"``; None when unreadable.

    With both marks the last is the decimal one. With one mark used once, three digits after
    it group thousands unless the currency has three decimals (KWD); two or one are decimals.
    The same mark used twice groups."""
    digits = re.sub(r"[ \u00a0\u202f']", "", number)
    dots, commas = digits.count("."), digits.count(",")
    if dots and commas:
        decimal = "." if digits.rfind(".") > digits.rfind(",") else ","
        group = "," if decimal == "." else "."
        whole, _, fraction = digits.rpartition(decimal)
        if decimal in whole or not _groups_ok(whole.split(group)):
            return None
        return whole.replace(group, "") + "." + fraction
    mark = "." if dots else "," if commas else None
    if mark is None:
        return digits
    parts = digits.split(mark)
    if len(parts) > 2 or (len(parts[1]) == 3 and exponent != 3):
        return "".join(parts) if _groups_ok(parts) else None
    return parts[0] + "." + parts[1]


def _groups_ok(parts: List[str]) -> bool:
    return 1 <= len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:]) if len(parts) > 1 \
        else bool(parts[0])


def marker_currency(marker: Optional[str], hint: str) -> Optional[str]:
    """The ISO code a marker names: ``$`` is the hint's dollar if it keeps one, else USD;
    ``kr`` the hint's crown (else SEK); ``¥`` CNY for a yuan group, else JPY."""
    if marker is None:
        return None
    if marker == DOLLAR:
        return hint if hint in DOLLARS else "USD"
    if marker == CROWN:
        return hint if hint in CROWNS else "SEK"
    if marker == YEN:
        return hint if hint in YENS else "JPY"
    return SYMBOLS.get(marker) or (marker if marker in CODES else None)


def find_amounts(line: str, exponent: int = 2) -> List[Amount]:
    """Every amount-shaped number in one line, left to right (counts and percentages left
    out). A bare integer is kept too; the parser decides whether it can be money."""
    found = []
    for match in AMOUNT.finditer(line):
        pre, post = match.group("pre"), match.group("post")
        if pre and pre not in SYMBOLS and pre not in CODES:
            pre = None
        if post and post not in SYMBOLS and post not in CODES:
            post = None
        if _PERCENT_AFTER.match(line, match.end("num")):
            continue
        if not pre and not post and _COUNT_AFTER.match(line, match.end("num")) and \
                not re.search(r"[.,]\d{1,2}$", match.group("num")):
            continue
        text = canonical(match.group("num"), exponent)
        if text is None:
            continue
        negative = bool(match.group("sign") or match.group("sign2") or match.group("trail"))
        found.append(Amount(text=text, negative=negative, marker=pre or post,
                            start=match.start(), end=match.end()))
    return found


def parse_amount(text: str, currency: str) -> Optional[int]:
    """One amount written anyhow (``"1.234,56 €"``, ``"$12.50"``) as minor units of
    ``currency``, or None. The single-value entry point (Textract fields, the vision model)."""
    amounts = find_amounts(text.strip(), MINOR_UNITS.get(currency, 2))
    if len(amounts) != 1:
        return None
    return amounts[0].minor(currency)
