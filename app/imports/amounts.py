"""Money and dates as other apps write them -> our integer minor units and YYYY-MM-DD.

Exact decimal arithmetic only: a JSON float (ihatemoney writes 13.33) is read through its
shortest repr, never through binary floating point."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation
from typing import Any, Optional, Tuple

from app.money.currencies import CODES, decimal_to_minor, parse_minor
from app.dates import is_calendar_date
from app.imports.model import ImportFileError

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
# No real amount, weight or share needs more: a longer cell is refused before any
# conversion, so a 250,000-digit cell costs a length check, not quadratic arithmetic.
MAX_NUMBER_CHARS = 30
# Unix timestamps a calendar date can come from: 1970-01-01 .. 9999-12-31.
MAX_TIMESTAMP = 253_402_300_799
_COMMA_DECIMAL = re.compile(r"[+-]?\d+,\d+")
# A spreadsheet-safe cell (ours, ihatemoney's, Spliit's) starts with ' before = + - @.
_ESCAPED = re.compile(r"'[=+\-@\t\r]")


def decimal_of(value: Any, line: Optional[int], what: str) -> Decimal:
    """A number from a cell or a JSON value, exactly; ImportFileError if it is none."""
    if isinstance(value, bool) or value is None:
        raise ImportFileError(line, f"{what} is not a number.")
    if isinstance(value, int) and abs(value) >= 10 ** MAX_NUMBER_CHARS:
        raise ImportFileError(line, f"{what} has more than {MAX_NUMBER_CHARS} digits.")
    if isinstance(value, (int, float)):
        text = repr(value)
    elif not isinstance(value, str):
        raise ImportFileError(line, f"{what} is not a number.")
    else:
        if len(value) > 4 * MAX_NUMBER_CHARS:  # before any strip or replace of a huge cell
            raise ImportFileError(line, f"{what} is longer than {MAX_NUMBER_CHARS} "
                                        f"characters.")
        text = value.strip().replace("\u00a0", "").replace(" ", "")
        if _COMMA_DECIMAL.fullmatch(text):
            text = text.replace(",", ".")
    if len(text) > MAX_NUMBER_CHARS:
        raise ImportFileError(line, f"{what} is longer than {MAX_NUMBER_CHARS} characters.")
    if not _NUMBER.fullmatch(text):
        raise ImportFileError(line, f"{what} is not a number: {str(value)[:40]!r}.")
    try:
        return Decimal(text)
    except InvalidOperation:
        raise ImportFileError(line, f"{what} is not a number: {str(value)[:40]!r}.") from None


def to_minor(value: Any, currency: str, line: Optional[int], what: str) -> Tuple[int, bool]:
    """(minor units, exact?) of a decimal amount; rounded half-even past the currency's
    decimals (the caller warns when it was not exact)."""
    if isinstance(value, str):  # the common cell ("12.30", "-4"): integers only, no Decimal
        try:
            return parse_minor(value, currency), True
        except ValueError:
            pass  # "+4", "12,30", " 4 ", more decimals than the currency has: read exactly below
    return decimal_to_minor(decimal_of(value, line, what), currency)


def currency_code(value: Any, line: Optional[int]) -> str:
    """An ISO 4217 code (case-insensitive), or ImportFileError."""
    code = str(value or "").strip().upper()
    if code not in CODES:
        raise ImportFileError(line, f"Unknown currency {str(value)[:12]!r}.")
    return code


def calendar_date(value: Any, line: Optional[int]) -> str:
    """YYYY-MM-DD from a date, an ISO timestamp or a unix timestamp; ImportFileError if none."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return timestamp_date(value, line)
    if value is not None and not isinstance(value, str):
        raise ImportFileError(line, "The date is not a date or a timestamp.")
    text = (value or "").strip()
    candidate = text[:10]
    if is_calendar_date(candidate) and (len(text) == 10 or text[10] in "T "):
        return candidate
    raise ImportFileError(line, f"Not a date: {text[:40]!r}.")


def timestamp_date(value: Any, line: Optional[int]) -> str:
    """YYYY-MM-DD (UTC) of a unix timestamp (a number or a digit string); ImportFileError for
    NaN, infinities, negative or past year 9999, and for a string that is no timestamp."""
    if isinstance(value, str):
        text = value.strip()
        if not text.isdigit() or len(text) > 12:
            raise ImportFileError(line, f"Not a timestamp: {text[:40]!r}.")
        value = int(text)
    if isinstance(value, float) and value != value:  # NaN
        raise ImportFileError(line, "The date is NaN, not a timestamp.")
    if not 0 <= value <= MAX_TIMESTAMP:
        raise ImportFileError(line, f"The timestamp {str(value)[:40]} is not a date between "
                                    f"1970 and 9999.")
    return datetime.fromtimestamp(int(value), timezone.utc).strftime("%Y-%m-%d")


def unescape(text: Any) -> str:
    """A text cell as its author typed it: the formula-injection quote removed."""
    text = "" if text is None else str(text)
    return text[1:] if _ESCAPED.match(text) else text
