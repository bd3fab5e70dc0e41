"""Amounts and dates as people write them, read into minor units and calendar days: a chat
message ("30€ for dinner yesterday", "12.5 dollars last Friday") and a printed receipt line
("1.234,56 €", "2,00-", "14.03.2026", "令和8年3月14日").

One currency table and one reading of separators serve both readers. A receipt line is
matched strictly (symbols as printed, a sign, a trailing discount minus); a message loosely
(any case, currency words, counts and clock times left out).

To read a new currency symbol, add it to :data:`SYMBOLS` (a symbol shared by several
currencies maps to a marker resolved with the group's currency, as ``$``, ``kr`` and ``¥``
do); a new thousands separator, to :data:`GROUPING`. Both readers follow."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import List, Optional, Tuple

from dateutil import parser as date_parser
from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta, weekday

from app.money.currencies import CODES, MINOR_UNITS, parse_minor

# --- The currency table -----------------------------------------------------------------------

# Markers for a symbol several currencies print: resolved with the group's (or the receipt's
# hinted) currency by :func:`currency_named`.
DOLLAR, CROWN, YEN = "$", "kr", "¥"
DOLLARS = frozenset({"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "TWD"})
CROWNS = frozenset({"SEK", "NOK", "DKK", "ISK", "CZK"})
YENS = frozenset({"JPY", "CNY"})
# Symbols as printed -> an ISO code or a marker. Matched longest first, so "US$" wins over
# "$"; a symbol of letters only where it is not part of a word ("kr" is not in "Dukr").
SYMBOLS = {"€": "EUR", "£": "GBP", "円": "JPY", "元": "CNY", "원": "KRW", "₹": "INR", "₩": "KRW",
           "₽": "RUB", "₺": "TRY", "₪": "ILS", "฿": "THB", "₫": "VND", "₱": "PHP", "₦": "NGN",
           "zł": "PLN", "Kč": "CZK", "Ft": "HUF", "R$": "BRL", "US$": "USD", "A$": "AUD",
           "C$": "CAD", "S$": "SGD", "HK$": "HKD", "NZ$": "NZD", "Fr.": "CHF", "chf": "CHF",
           "$": DOLLAR, "kr.": CROWN, "kr": CROWN, "¥": YEN,
           # Printed by receipts of their countries, never an ISO code (issue 47: a local
           # symbol read as the group's currency loses the scan).
           "RM": "MYR", "Rp": "IDR", "Rs.": "INR", "Rs": "INR", "₴": "UAH", "₸": "KZT",
           "₼": "AZN", "₾": "GEL", "₡": "CRC", "₲": "PYG", "₵": "GHS", "৳": "BDT",
           "NT$": "TWD", "MX$": "MXN", "RMB": "CNY", "TL": "TRY", "S/": "PEN", "S/.": "PEN",
           "SFr.": "CHF", "лв": "BGN", "руб": "RUB", "грн": "UAH", "lei": "RON", "Ksh": "KES",
           "KSh": "KES", "đ": "VND", "บาท": "THB"}
# Symbols read on receipts only: in a message they are ordinary words ("20 ft of cable",
# "rm the file", "Rs" of a name).
PRINTED_ONLY = frozenset({"Ft", "RM", "Rp", "Rs.", "Rs", "TL", "S/", "S/.", "lei", "Ksh",
                          "KSh", "руб", "лв", "грн", "RMB", "SFr.", "đ", "บาท"})
# Words a message names a currency with ("12 bucks"); receipts print symbols and codes.
WORDS = {"dollar": DOLLAR, "dollars": DOLLAR, "bucks": DOLLAR, "buck": DOLLAR,
         "euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP", "quid": "GBP",
         "yen": "JPY", "franc": "CHF", "francs": "CHF", "rupee": "INR", "rupees": "INR",
         "zloty": "PLN", "zlotys": "PLN", "krona": CROWN, "kronor": CROWN, "krone": CROWN,
         "kroner": CROWN, "pesos": "MXN", "peso": "MXN", "won": "KRW", "baht": "THB",
         "forint": "HUF", "lira": "TRY", "rand": "ZAR", "reais": "BRL", "real": "BRL"}
# Characters that group thousands besides "." and ",": space, no-break and narrow no-break
# space, apostrophe (Swiss "1'250", typeset "1’250").
GROUPING = " \u00a0\u202f'\u2019"
_ANY_CASE = {symbol.lower(): code for symbol, code in SYMBOLS.items()}


def currency_named(written: Optional[str], hint: str) -> Optional[str]:
    """The ISO code a written symbol, word or code names (None: none, or not a currency).
    ``$`` is the hint's dollar if it keeps one, else USD; ``kr`` the hint's crown (else SEK);
    ``¥`` CNY for a yuan hint, else JPY."""
    if written is None:
        return None
    named = SYMBOLS.get(written) or _ANY_CASE.get(written.lower()) or WORDS.get(written.lower())
    if named == DOLLAR:
        return hint if hint in DOLLARS else "USD"
    if named == CROWN:
        return hint if hint in CROWNS else "SEK"
    if named == YEN:
        return hint if hint in YENS else "JPY"
    if named is not None:
        return named
    return written if written in CODES else None


def _spelled(ch: str) -> bool:
    """A letter of a spaced alphabet (Latin, Greek, Cyrillic): a symbol ending in one is
    not part of a longer word ("kr" is not in "Dukr", "đ" not in "đĩa"); CJK and Thai
    symbols ("円", "บาท") sit against text with no space."""
    return ch.isalpha() and ord(ch) < 0x0530


def _symbol_pattern(symbol: str) -> str:
    pattern = re.escape(symbol)
    if _spelled(symbol[0]):
        pattern = r"(?<![^\W\d_])" + pattern
    if _spelled(symbol[-1]):
        pattern += r"(?![^\W\d_])"
    return pattern


def _symbols(symbols) -> str:
    return "|".join(_symbol_pattern(s) for s in sorted(symbols, key=len, reverse=True))


# --- Numbers ----------------------------------------------------------------------------------

def canonical(number: str, exponent: int = 2, *, lone_dot_groups: bool = True) -> Optional[str]:
    """``"1.234,56"`` -> ``"1234.56"``; ``"1,200"`` -> ``"1200"``; None when unreadable.

    With both marks the last is the decimal one. With one mark used once, three digits after
    it group thousands unless the currency has three decimals (KWD), or the mark is a dot and
    ``lone_dot_groups`` is off; two or one are decimals. The same mark used twice groups."""
    digits = re.sub(f"[{re.escape(GROUPING)}]", "", number)
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
    groups = len(parts[1]) == 3 and exponent != 3 and (mark == "," or lone_dot_groups)
    if len(parts) > 2 or groups:
        return "".join(parts) if _groups_ok(parts) else None
    return parts[0] + "." + parts[1]


def _groups_ok(parts: List[str]) -> bool:
    """Thousands (``1,234,567``), or lakhs and crores as India writes them (``12,34,567``:
    the last group three digits, those before it two)."""
    if len(parts) == 1:
        return bool(parts[0])
    thousands = 1 <= len(parts[0]) <= 3 and all(len(p) == 3 for p in parts[1:])
    lakhs = len(parts) > 2 and 1 <= len(parts[0]) <= 2 and len(parts[-1]) == 3 \
        and all(len(p) == 2 for p in parts[1:-1])
    return thousands or lakhs


@dataclass(frozen=True)
class Amount:
    """One amount found in text: its canonical decimal text, sign, the currency written next
    to it and where it was. ``currency`` is an ISO code, a marker (DOLLAR, CROWN, YEN: resolve
    it with :func:`currency_named`) or the symbol as printed; None for a bare number."""

    text: str  # "1234.56", "1200"
    negative: bool
    currency: Optional[str]
    start: int
    end: int

    @property
    def value(self) -> Decimal:
        return -Decimal(self.text) if self.negative else Decimal(self.text)

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


# --- Amounts on a receipt line ----------------------------------------------------------------

_CODE = r"(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])"
_MARK = rf"(?:{_symbols(SYMBOLS)}|{_CODE})"
# Thousands ("1.234,56", "1,234.56"), or lakhs ("12,34,567.89", India).
_GROUPED = (r"\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?"
            r"|\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,3})?")
_SPACES = re.escape(GROUPING.replace(" ", ""))
# A plain space groups only before a decimal part ("1 234,56": "2 150" is a count and a
# price); the other GROUPING characters always group.
_SPACED = (r"\d{1,3}(?: \d{3})+[.,]\d{1,3}"
           rf"|\d{{1,3}}(?:[{_SPACES}]\d{{3}})+(?:[.,]\d{{1,3}})?")
_PRINTED_NUMBER = rf"{_SPACED}|{_GROUPED}|\d{{1,12}}(?:[.,]\d{{1,3}})?"
AMOUNT = re.compile(
    rf"(?<![\d.,/:])(?<!\d[-−])(?P<sign>[-−])?\s?(?:(?P<pre>{_MARK})\s?(?P<sign2>[-−])?)?"
    rf"(?P<num>{_PRINTED_NUMBER})(?![\d%:/])(?!\s?[.,]\d)(?![-−]\d)"
    rf"(?:\s?(?P<post>{_MARK}))?(?P<trail>-(?!\d))?")
# Whole numbers that count things, not money: "3点", "3 Stk", "2 x"; and percentages.
_COUNT_AFTER = re.compile(r"\s*(?:点|個|pcs\b|stk\b|st\b|x\b|×|@|items?\b|artikel\b)", re.I)
_PERCENT_AFTER = re.compile(r"\s?%")


def find_amounts(line: str, exponent: int = 2) -> List[Amount]:
    """Every amount-shaped number in one printed line, left to right (counts and percentages
    left out), its currency as printed. A bare integer is kept too; the receipt parser decides
    whether it can be money."""
    found = []
    for match in AMOUNT.finditer(line):
        pre, post = match.group("pre"), match.group("post")
        start = match.start()
        if pre and pre not in SYMBOLS and pre not in CODES:
            # Three capitals that are no currency ("TIP 2.70", "TEA 3.00") are the label.
            pre, start = None, match.start("sign2") if match.group("sign2") else \
                match.start("num")
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
        found.append(Amount(text=text, negative=negative, currency=pre or post,
                            start=start, end=match.end()))
    return found


def parse_amount(text: str, currency: str) -> Optional[int]:
    """One amount written anyhow (``"1.234,56 €"``, ``"$12.50"``) as minor units of
    ``currency``, or None. The single-value entry point (Textract fields, the vision model)."""
    amounts = find_amounts(text.strip(), MINOR_UNITS.get(currency, 2))
    if len(amounts) != 1:
        return None
    return amounts[0].minor(currency)


# --- Amounts in a message ---------------------------------------------------------------------

_NUMBER = r"\d{1,3}(?:[ ,.]\d{3})+(?:[.,]\d{1,3})?|\d+(?:[.,]\d{1,3})?"
_SYMBOL = _symbols(set(SYMBOLS) - PRINTED_ONLY)
_WORD = "|".join(sorted(WORDS, key=len, reverse=True))
# Codes in capitals only: "all", "top" and "try" are words before they are currencies.
_MESSAGE_PATTERNS = [
    re.compile(rf"(?P<cur>{_SYMBOL})\s?(?P<num>{_NUMBER})", re.I),
    re.compile(rf"(?P<num>{_NUMBER})\s?(?P<cur>{_SYMBOL})", re.I),
    re.compile(rf"\b(?P<num>{_NUMBER})\s+(?P<cur>{_WORD})\b", re.I),
    re.compile(r"\b(?P<cur>[A-Z]{3})\s?" rf"(?P<num>{_NUMBER})"),
    re.compile(rf"\b(?P<num>{_NUMBER})\s?(?P<cur>[A-Z]{{3}})\b"),
]
_BARE = re.compile(rf"(?<![\w/.,:-])(?P<num>{_NUMBER})(?![\w/:%-])")
# Numbers that are not money: counts of shares, ways, people, percentages, times, days.
_NOT_MONEY = re.compile(r"^\s*(?:shares?|ways?|people|persons?|of us|days?|nights?|weeks?|"
                        r"months?|years?|x\b|times|st\b|nd\b|rd\b|th\b|am\b|pm\b|o'clock)", re.I)


def amounts_in_message(text: str, group_currency: str) -> List[Amount]:
    """Every amount in a message, in order, its currency resolved with the group's: those
    with a currency, then bare numbers that do not read as counts, dates or percentages. A
    lone dot is the decimal point here ("10.555" is no EUR amount: the drafter asks), where a
    receipt prints "1.234" for a thousand."""
    exponent = MINOR_UNITS.get(group_currency, 2)
    found: List[Amount] = []
    taken: List[range] = []

    def free(start: int, end: int) -> bool:
        return not any(start < r.stop and r.start < end for r in taken)

    for pattern in _MESSAGE_PATTERNS:
        for match in pattern.finditer(text):
            currency = currency_named(match.group("cur"), group_currency)
            number = canonical(match.group("num"), exponent, lone_dot_groups=False)
            if currency is None or number is None or not free(match.start(), match.end()):
                continue
            found.append(Amount(number, False, currency, match.start(), match.end()))
            taken.append(range(match.start(), match.end()))
    for match in _BARE.finditer(text):
        if not free(match.start(), match.end()) or _NOT_MONEY.match(text[match.end():]):
            continue
        number = canonical(match.group("num"), exponent, lone_dot_groups=False)
        if number is not None:
            found.append(Amount(number, False, None, match.start(), match.end()))
    return sorted(found, key=lambda amount: amount.start)


# --- Dates --------------------------------------------------------------------------------------

def fold(text: str) -> str:
    """Lower case without accents, one character for one (``"Rückgeld"`` -> ``"ruckgeld"``)
    where the script allows it, so spans found in the folded text index the original."""
    out = []
    for ch in text.lower():
        base = "".join(c for c in unicodedata.normalize("NFKD", ch)
                       if not unicodedata.combining(c))
        out.append(base if len(base) == 1 else ch)
    return "".join(out)


# Month names (folded) -> number. A message is read in English (dateutil reads the date), so
# its pattern takes ENGLISH_MONTHS only: "out", "set" and "ago" are words there.
ENGLISH_MONTHS = ("jan feb mar apr may jun jul aug sep sept oct nov dec january february march "
                  "april june july august september october november december").split()
MONTHS = {}
for _number, _names in enumerate((
        "jan january januar janner janv janvier enero ene gennaio gen januari janeiro",
        "feb february februar fevr fev fevrier febrero febbraio februari fevereiro",
        "mar march marz maerz mars marzo mrt maart marco",
        "apr april avr avril abril abr aprile",
        "may mai mayo mag maggio mei maio",
        "jun june juni juin junio giu giugno junho",
        "jul july juli juil juillet julio lug luglio julho",
        "aug august aout agosto ago augustus",
        "sep sept september septembre septiembre setiembre set settembre setembro",
        "oct october oktober okt octobre octubre ott ottobre outubro out",
        "nov november novembre noviembre novembro",
        "dec december dezember dez decembre diciembre dic dicembre dezembro"), start=1):
    MONTHS.update(dict.fromkeys(_names.split(), _number))


def _month_pattern(names) -> str:
    return "|".join(sorted(names, key=len, reverse=True))


# --- Dates on a receipt line --------------------------------------------------------------------
# A numeric day and month that could be either way round (``03/04/2026``) is resolved with the
# hints: the one nearer the expense date, else month first for a US locale (or a USD group
# with no locale), else day first as most of the world writes it.

_SEP = r"[./\-]"
# OCR often runs the time into the date ("14.03.202608:17"): a year may touch a clock time.
_END = r"(?:(?=\d{1,2}:\d{2})|(?!\d|[.,]\d))"
_ALL_MONTHS = _month_pattern(MONTHS)
ISO = re.compile(rf"(?<!\d)(\d{{4}})[./\-](\d{{1,2}})[./\-](\d{{1,2}}){_END}")
CJK = re.compile(r"(?:(\d{4})|令和\s*(\d{1,2}|元))\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")
NUMERIC = re.compile(rf"(?<![\d.,])(\d{{1,2}})({_SEP})(\d{{1,2}})\2(\d{{4}}|\d{{2}}){_END}")
DAY_MONTH = re.compile(rf"(?<!\d)(\d{{1,2}})\.?\s*(?:de\s+)?({_ALL_MONTHS})\.?,?\s*(?:de\s+)?"
                       rf"(\d{{4}})(?!\d)")
MONTH_DAY = re.compile(rf"(?<![a-z])({_ALL_MONTHS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+"
                       rf"(\d{{4}})(?!\d)")
TIME = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?(?![\d])", re.I)
MONTH_FIRST_LOCALES = ("en-us", "en_us", "en-ph", "en_ph", "es-us", "en-fm", "en-pw")


@dataclass(frozen=True)
class FoundDate:
    day: str  # YYYY-MM-DD
    certain: bool  # False: day and month could be the other way round
    start: int
    end: int


def _day(year: int, month: int, day: int) -> Optional[str]:
    if year < 100:
        year += 2000
    if not 1990 <= year <= 2099:
        return None
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _month_first(hint_currency: str, locale: Optional[str]) -> bool:
    if locale:
        return locale.strip().lower() in MONTH_FIRST_LOCALES
    return hint_currency == "USD"


def find_dates(line: str, *, currency: str = "", expense_date: Optional[str] = None,
               locale: Optional[str] = None) -> List[FoundDate]:
    """Every date in one printed line, each resolved to one calendar day."""
    found: List[FoundDate] = []
    taken: List[range] = []

    def add(day: Optional[str], certain: bool, match: re.Match) -> None:
        span = range(match.start(), match.end())
        if day and not any(set(span) & set(t) for t in taken):
            taken.append(span)
            found.append(FoundDate(day, certain, match.start(), match.end()))

    for match in ISO.finditer(line):
        add(_day(int(match[1]), int(match[2]), int(match[3])), True, match)
    for match in CJK.finditer(line):
        era = match[2]
        year = int(match[1]) if match[1] else 2018 + (1 if era == "元" else int(era))
        add(_day(year, int(match[3]), int(match[4])), True, match)
    folded = fold(line)  # same length as line for the Latin scripts these patterns match
    same = len(folded) == len(line)
    for match in DAY_MONTH.finditer(folded):
        if same:
            add(_day(int(match[3]), MONTHS[match[2]], int(match[1])), True, match)
    for match in MONTH_DAY.finditer(folded):
        if same:
            add(_day(int(match[3]), MONTHS[match[1]], int(match[2])), True, match)
    for match in NUMERIC.finditer(line):
        first, second, year = int(match[1]), int(match[3]), int(match[4])
        day_first, month_first = _day(year, second, first), _day(year, first, second)
        if day_first and month_first and day_first != month_first:
            add(_resolve(day_first, month_first, currency, expense_date, locale), False, match)
        else:
            add(day_first or month_first, True, match)
    return sorted(found, key=lambda f: f.start)


def _resolve(day_first: str, month_first: str, currency: str, expense_date: Optional[str],
             locale: Optional[str]) -> str:
    if expense_date:
        try:
            hint = date.fromisoformat(expense_date)
        except ValueError:
            hint = None
        if hint is not None:
            gaps = [abs((date.fromisoformat(d) - hint).days) for d in (day_first, month_first)]
            if gaps[0] != gaps[1]:
                return day_first if gaps[0] < gaps[1] else month_first
    return month_first if _month_first(currency, locale) else day_first


def strip_dates_and_times(line: str, dates: List[FoundDate]) -> str:
    """The line with its dates and clock times blanked (same length), so their digits are
    never read as amounts."""
    chars = list(line)
    for found in dates:
        chars[found.start:found.end] = " " * (found.end - found.start)
    return TIME.sub(lambda m: " " * len(m.group()), "".join(chars))


# --- The date in a message ------------------------------------------------------------------------

WEEKDAYS = {"monday": MO, "tuesday": TU, "wednesday": WE, "thursday": TH, "friday": FR,
            "saturday": SA, "sunday": SU}
_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "a": 1}
_RELATIVE = re.compile(r"\b(day before yesterday|yesterday|today|tonight|this morning|"
                       r"last night)\b", re.I)
_AGO = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|a)\s+(days?|weeks?)\s+ago\b", re.I)
_WEEKDAY = re.compile(r"\b(last|on|this past|past)?\s*(" + "|".join(WEEKDAYS) + r")\b", re.I)
_ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_ENGLISH_MONTH = _month_pattern(ENGLISH_MONTHS)
_NAMED = re.compile(rf"\b(?:(?:on|the)\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
                    rf"(?:{_ENGLISH_MONTH})\.?(?:\s+\d{{4}})?|(?:{_ENGLISH_MONTH})\.?\s+"
                    rf"\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?)\b", re.I)
_SLASH = re.compile(r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b")


def _past(day: date, today: date) -> date:
    """A date given without a year means its latest occurrence not after today."""
    return day - relativedelta(years=1) if day > today else day


def date_in_message(text: str, today: date) -> Tuple[Optional[date], Optional[Tuple[int, int]]]:
    """The date a message names and where (None, None when it names none): "yesterday",
    "last Friday", "3 days ago", "2026-11-28", "Nov 28", "28/11"."""
    match = _ISO_DAY.search(text)
    if match:
        try:
            return date.fromisoformat(match.group()), match.span()
        except ValueError:
            return None, None
    match = _RELATIVE.search(text)
    if match:
        word = match.group(1).lower()
        back = {"day before yesterday": 2, "yesterday": 1, "last night": 1}.get(word, 0)
        return today - timedelta(days=back), match.span()
    match = _AGO.search(text)
    if match:
        count = _COUNTS.get(match.group(1).lower()) or int(match.group(1))
        days = count * (7 if match.group(2).lower().startswith("week") else 1)
        return today - timedelta(days=days), match.span()
    match = _NAMED.search(text) or _SLASH.search(text)
    if match:
        try:
            # Day first for 28/11: the form most of the world writes.
            parsed = date_parser.parse(match.group(), dayfirst=True, fuzzy=True,
                                       default=datetime(today.year, today.month, today.day)
                                       ).date()
        except (ValueError, OverflowError):
            return None, None
        explicit_year = re.search(r"\d{4}|/\d{2}\b", match.group())
        return (parsed if explicit_year else _past(parsed, today)), match.span()
    match = _WEEKDAY.search(text)
    if match:
        day: weekday = WEEKDAYS[match.group(2).lower()]
        # "last Friday" on a Friday is a week ago; plain "Friday" is the latest Friday.
        start = today - timedelta(days=1) if (match.group(1) or "").lower() == "last" else today
        return start + relativedelta(weekday=day(-1)), match.span()
    return None, None
