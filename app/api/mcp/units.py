"""The tools' money units: decimal strings in the group currency, in and out of refusals.

A tool takes ``"12.30"`` where its REST route takes 1230, so a refusal that quotes an amount
in minor units ("payments sum to 1200 but the expense amount is 1230") would mislead the
assistant: :func:`in_units` turns the amounts a refusal quotes back into the tool's units."""
from __future__ import annotations

import re
from typing import Any, Callable, Optional, TypeVar

from app.errors import Invalid
from app.money.currencies import format_minor, parse_minor
from app.money.splits import MAX_AMOUNT

T = TypeVar("T")
# Refusals about amounts say one of these; other refusals' numbers (lengths) are left alone.
MONEY_WORDS = ("sum", "amount", "groupAmount")
# Refusals about values that are not money (PERCENT basis points, SHARES weights).
NOT_MONEY = ("basis points", "PERCENT", "SHARES")
# A bare integer in a money refusal ("payments sum to 1200 but ..."), not an index
# ("items[0]"), part of an id or word, or a decimal already; one ending a sentence is one.
_NUMBER = re.compile(r"(?<![\w.\[-])\d+(?![\w\]-])(?!\.\d)")
# Numbers after these words are converted totals, in the group currency (conversion's
# "groupAmount 2800 disagrees with exchangeRate 1.1: 2500 converts to 2750.").
_GROUP_TOTAL = re.compile(r"(groupAmount|converts to|it is) $")


def to_minor(value: Any, currency: str, path: str, *, minimum: int = 1) -> int:
    """A decimal string in ``currency`` -> minor units, or Invalid naming the argument in the
    tool's units (the REST range, 1 minor unit to MAX_AMOUNT, said as decimals)."""
    try:
        minor = parse_minor(value, currency)
    except ValueError as error:
        raise Invalid("The arguments have invalid fields.", details={path: [str(error)]}) from None
    if not minimum <= minor <= MAX_AMOUNT:
        low = "at least 0" if minimum == 0 else "more than 0"
        raise Invalid("The arguments have invalid fields.", details={path: [
            f"Must be {low} and at most {format_minor(MAX_AMOUNT, currency)} {currency}."]})
    return minor


def in_units(run: Callable[[], T], currency: str, group_currency: Optional[str] = None) -> T:
    """``run()``, with a refusal's minor-unit amounts restated as decimals in ``currency``
    (a converted total, in ``group_currency``)."""
    try:
        return run()
    except Invalid as error:
        raise restated(error, currency, group_currency) from None


def restated(error: Invalid, currency: str, group_currency: Optional[str] = None) -> Invalid:
    """The ledger's money refusals quote minor units (app.money.splits,
    app.services.ledger.expense_input, app.services.ledger.foreign_currency): every bare integer in
    one is an amount, in the body's currency unless it is a converted total (GROUP_TOTAL)."""
    if (not any(word in error.message for word in MONEY_WORDS)
            or any(word in error.message for word in NOT_MONEY)):
        return error

    def unit(text: str, at: int) -> str:
        converted = group_currency and _GROUP_TOTAL.search(text[:at])
        return group_currency if converted else currency

    def said(text: str) -> str:
        def one(m) -> str:
            code = unit(text, m.start())
            return f"{format_minor(int(m.group()), code)} {code}"
        return _NUMBER.sub(one, text)

    details = {key: [said(v) if isinstance(v, str) else v for v in value]
               if isinstance(value, list) else value for key, value in error.details.items()}
    return Invalid(said(error.message), code=error.code, details=details)
