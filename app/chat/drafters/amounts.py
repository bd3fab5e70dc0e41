"""Amounts in free text: "42.50", "30€", "€30", "USD 12", "12.5 dollars", "1,234.50 EUR"."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import List, Optional

from app.money.currencies import CODES, exact_minor

# Symbols and words that name a currency. "$" and "dollars" are the group's own dollar when
# the group keeps one (CAD, AUD, ...), else USD; the same for "kr" and the crowns.
DOLLAR = "$"
CROWN = "kr"
SYMBOLS = {"€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB",
           "₺": "TRY", "₪": "ILS", "฿": "THB", "₫": "VND", "₱": "PHP", "₦": "NGN",
           "zł": "PLN", "r$": "BRL", "us$": "USD", "a$": "AUD", "c$": "CAD", "$": DOLLAR,
           "kr": CROWN, "chf": "CHF", "fr.": "CHF"}
WORDS = {"dollar": DOLLAR, "dollars": DOLLAR, "bucks": DOLLAR, "buck": DOLLAR,
         "euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP", "quid": "GBP",
         "yen": "JPY", "franc": "CHF", "francs": "CHF", "rupee": "INR", "rupees": "INR",
         "zloty": "PLN", "zlotys": "PLN", "krona": CROWN, "kronor": CROWN, "krone": CROWN,
         "kroner": CROWN, "pesos": "MXN", "peso": "MXN", "won": "KRW", "baht": "THB",
         "forint": "HUF", "lira": "TRY", "rand": "ZAR", "reais": "BRL", "real": "BRL"}
DOLLARS = {"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "TWD"}
CROWNS = {"SEK", "NOK", "DKK", "ISK", "CZK"}

_NUMBER = r"\d{1,3}(?:[ ,.]\d{3})+(?:[.,]\d{1,3})?|\d+(?:[.,]\d{1,3})?"
_SYMBOL = "|".join(re.escape(s) for s in sorted(SYMBOLS, key=len, reverse=True))
_WORD = "|".join(sorted(WORDS, key=len, reverse=True))
# Codes in capitals only: "all", "top" and "try" are words before they are currencies.
_CODE = r"[A-Z]{3}"
_PATTERNS = [
    re.compile(rf"(?P<cur>{_SYMBOL})\s?(?P<num>{_NUMBER})", re.I),
    re.compile(rf"(?P<num>{_NUMBER})\s?(?P<cur>{_SYMBOL})", re.I),
    re.compile(rf"\b(?P<num>{_NUMBER})\s+(?P<cur>{_WORD})\b", re.I),
    re.compile(rf"\b(?P<cur>{_CODE})\s?(?P<num>{_NUMBER})"),
    re.compile(rf"\b(?P<num>{_NUMBER})\s?(?P<cur>{_CODE})\b"),
]
_BARE = re.compile(rf"(?<![\w/.,:-])(?P<num>{_NUMBER})(?![\w/:%-])")
# Numbers that are not money: counts of shares, ways, people, percentages, times, days.
_NOT_MONEY = re.compile(r"^\s*(?:shares?|ways?|people|persons?|of us|days?|nights?|weeks?|"
                        r"months?|years?|x\b|times|st\b|nd\b|rd\b|th\b|am\b|pm\b|o'clock)", re.I)


@dataclass(frozen=True)
class Amount:
    """An amount found in the text: its decimal value, its currency (None: not named) and
    where it was."""

    value: Decimal
    currency: Optional[str]
    start: int
    end: int

    def minor(self, currency: str) -> Optional[int]:
        """Minor units of ``currency``, or None when it has more decimals than the currency."""
        return exact_minor(self.value, currency)


def _decimal(text: str) -> Optional[Decimal]:
    """``"1,234.50"``, ``"1.234,50"``, ``"42,50"``, ``"1 234"`` -> Decimal."""
    text = text.replace(" ", "")
    if "," in text and "." in text:
        decimal_mark = "," if text.rfind(",") > text.rfind(".") else "."
    elif "," in text:
        # "42,50" is a decimal comma; "1,234" groups thousands.
        decimal_mark = "," if len(text.rsplit(",", 1)[1]) != 3 or text.count(",") == 0 else None
    elif text.count(".") > 1:
        decimal_mark = None
    else:
        decimal_mark = "."
    if decimal_mark is None:
        text = text.replace(",", "").replace(".", "")
    else:
        thousands = "." if decimal_mark == "," else ","
        text = text.replace(thousands, "").replace(decimal_mark, ".")
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _currency(token: str, group_currency: str) -> Optional[str]:
    token = token.lower()
    named = SYMBOLS.get(token) or WORDS.get(token)
    if named is None:
        code = token.upper()
        return code if code in CODES else None
    if named == DOLLAR:
        return group_currency if group_currency in DOLLARS else "USD"
    if named == CROWN:
        return group_currency if group_currency in CROWNS else "SEK"
    return named


def find_amounts(text: str, group_currency: str) -> List[Amount]:
    """Every amount in ``text``, in order: those with a currency, then bare numbers that do
    not read as counts, dates or percentages."""
    found: List[Amount] = []
    taken: List[range] = []

    def free(start: int, end: int) -> bool:
        return not any(start < r.stop and r.start < end for r in taken)

    for pattern in _PATTERNS:
        for match in pattern.finditer(text):
            currency = _currency(match.group("cur"), group_currency)
            value = _decimal(match.group("num"))
            if currency is None or value is None or not free(match.start(), match.end()):
                continue
            found.append(Amount(value, currency, match.start(), match.end()))
            taken.append(range(match.start(), match.end()))
    for match in _BARE.finditer(text):
        if not free(match.start(), match.end()) or _NOT_MONEY.match(text[match.end():]):
            continue
        value = _decimal(match.group("num"))
        if value is not None:
            found.append(Amount(value, None, match.start(), match.end()))
    return sorted(found, key=lambda amount: amount.start)
