"""Dates as receipts print them: ``2026-03-14``, ``14.03.2026``, ``03/14/26``, ``14 mars 2026``,
``14. März 2026``, ``14 de marzo de 2026``, ``Mar 14, 2026``, ``2026年3月14日``, ``令和8年3月14日``.

A numeric day and month that could be either way round (``03/04/2026``) is resolved with the
hints: the one nearer the expense date, else month first for a US locale (or a USD group
with no locale), else day first as most of the world writes it."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date as Date
from typing import List, Optional

from app.receipts.scan.text import fold

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
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_SEP = r"[./\-]"
# OCR often runs the time into the date ("14.03.202608:17"): a year may touch a clock time.
_END = r"(?:(?=\d{1,2}:\d{2})|(?!\d|[.,]\d))"
ISO = re.compile(rf"(?<!\d)(\d{{4}})[./\-](\d{{1,2}})[./\-](\d{{1,2}}){_END}")
CJK = re.compile(r"(?:(\d{4})|令和\s*(\d{1,2}|元))\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日")
NUMERIC = re.compile(rf"(?<![\d.,])(\d{{1,2}})({_SEP})(\d{{1,2}})\2(\d{{4}}|\d{{2}}){_END}")
DAY_MONTH = re.compile(rf"(?<!\d)(\d{{1,2}})\.?\s*(?:de\s+)?({_MONTH})\.?,?\s*(?:de\s+)?(\d{{4}})(?!\d)")
MONTH_DAY = re.compile(rf"(?<![a-z])({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})(?!\d)")
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
        return Date(year, month, day).isoformat()
    except ValueError:
        return None


def _month_first(hint_currency: str, locale: Optional[str]) -> bool:
    if locale:
        return locale.strip().lower() in MONTH_FIRST_LOCALES
    return hint_currency == "USD"


def find_dates(line: str, *, currency: str = "", expense_date: Optional[str] = None,
               locale: Optional[str] = None) -> List[FoundDate]:
    """Every date in one line, each resolved to one calendar day."""
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
            hint = Date.fromisoformat(expense_date)
        except ValueError:
            hint = None
        if hint is not None:
            gaps = [abs((Date.fromisoformat(d) - hint).days) for d in (day_first, month_first)]
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
