"""The tools' money units: decimal strings in the group currency, in and out of refusals.

A tool takes ``"12.30"`` where its REST route takes 1230, so a refusal that quotes an amount
in minor units ("payments sum to 1200 but the expense amount is 1230") would mislead the
assistant. The ledger's money refusals keep what they quote as numbers with their currency
(app.money.refusals.MoneyInvalid): :func:`in_units` says them again in the tool's units,
from that structure, never by rewriting the English text."""
from __future__ import annotations

from typing import Any, Callable, Optional, TypeVar

from app.errors import Invalid
from app.money.currencies import format_minor, parse_minor
from app.money.refusals import MoneyInvalid
from app.money.splits import MAX_AMOUNT

T = TypeVar("T")


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
    """``run()``, with a money refusal's amounts said as decimals: in ``currency`` (the
    body's) or, for a converted total, ``group_currency``, unless the refusal knows its own."""
    try:
        return run()
    except MoneyInvalid as error:
        raise restated(error, currency, group_currency) from None


def restated(error: MoneyInvalid, currency: str,
             group_currency: Optional[str] = None) -> Invalid:
    """The refusal with each quoted amount as ``"12.30 EUR"``."""
    priced = error.priced(currency, group_currency or currency)

    def decimal(minor: int, code: Optional[str]) -> str:
        return f"{format_minor(minor, code)} {code}"

    return priced.said(decimal)
