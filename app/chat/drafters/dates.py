"""Dates in free text: "yesterday", "last Friday", "3 days ago", "2026-11-28", "Nov 28"."""
from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Optional, Tuple

from dateutil import parser as date_parser
from dateutil.relativedelta import relativedelta, weekday
from dateutil.relativedelta import MO, TU, WE, TH, FR, SA, SU

WEEKDAYS = {"monday": MO, "tuesday": TU, "wednesday": WE, "thursday": TH, "friday": FR,
            "saturday": SA, "sunday": SU}
MONTHS = ("jan feb mar apr may jun jul aug sep sept oct nov dec january february march april "
          "june july august september october november december").split()
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "a": 1}

_RELATIVE = re.compile(r"\b(day before yesterday|yesterday|today|tonight|this morning|"
                       r"last night)\b", re.I)
_AGO = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|a)\s+(days?|weeks?)\s+ago\b", re.I)
_WEEKDAY = re.compile(r"\b(last|on|this past|past)?\s*(" + "|".join(WEEKDAYS) + r")\b", re.I)
_ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_NAMED = re.compile(rf"\b(?:(?:on|the)\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})\.?"
                    rf"(?:\s+\d{{4}})?|(?:{_MONTH})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?)\b",
                    re.I)
_SLASH = re.compile(r"\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b")


def _past(day: date, today: date) -> date:
    """A date given without a year means its latest occurrence not after today."""
    return day - relativedelta(years=1) if day > today else day


def find_date(text: str, today: date) -> Tuple[Optional[date], Optional[Tuple[int, int]]]:
    """The date ``text`` names and where (None, None when it names none)."""
    match = _ISO.search(text)
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
        count = _NUMBERS.get(match.group(1).lower()) or int(match.group(1))
        days = count * (7 if match.group(2).lower().startswith("week") else 1)
        return today - timedelta(days=days), match.span()
    match = _NAMED.search(text) or _SLASH.search(text)
    if match:
        try:
            # Day first for 28/11: the form most of the world writes.
            parsed = date_parser.parse(match.group(), default=_midnight(today), dayfirst=True,
                                       fuzzy=True).date()
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


def _midnight(today: date):
    from datetime import datetime

    return datetime(today.year, today.month, today.day)
