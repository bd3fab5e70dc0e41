"""ISO 4217 currencies and their minor-unit exponents (amounts are minor units).

Codes and exponents come from the ``iso4217`` package (the ISO 4217 maintenance agency's
published table, shipped with the package), never from a hand table. Codes without a minor
unit (funds, precious metals, ``XXX``) are not money a group can spend and are left out."""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Set
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Iterator, Optional, Tuple


@functools.cache
def _table() -> dict:
    """Code -> minor-unit exponent, read once from the iso4217 package."""
    # Imported on first use: the package parses its XML table on import, a cost a cold start
    # pays only when a request reads a currency.
    from iso4217 import Currency

    return {currency.code: currency.exponent for currency in Currency
            if currency.exponent is not None}


class _MinorUnits(Mapping):
    """``MINOR_UNITS``: a read-only dict of code -> exponent, the table read on first use."""

    def __getitem__(self, code: str) -> int:
        return _table()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(_table())

    def __len__(self) -> int:
        return len(_table())


class _Codes(Set):
    """``CODES``: the set of known codes, the table read on first use."""

    def __contains__(self, code) -> bool:
        return code in _table()

    def __iter__(self) -> Iterator[str]:
        return iter(_table())

    def __len__(self) -> int:
        return len(_table())


MINOR_UNITS: Mapping = _MinorUnits()
CODES: Set = _Codes()


def exponent(currency: str) -> int:
    """Minor-unit exponent of a known code (KeyError for an unknown one)."""
    return MINOR_UNITS[currency]


def format_minor(amount: int, currency: str) -> str:
    """``4550, "EUR"`` -> ``"45.50"`` with exact integer arithmetic (no floats)."""
    places = MINOR_UNITS.get(currency, 2)
    sign = "-" if amount < 0 else ""
    whole, fraction = divmod(abs(amount), 10 ** places)
    return f"{sign}{whole}.{fraction:0{places}d}" if places else f"{sign}{whole}"


def parse_minor(text: str, currency: str) -> int:
    """``"45.50", "EUR"`` -> ``4550``, exactly: the inverse of :func:`format_minor`.

    Accepts an optional leading minus, digits, and at most the currency's number of decimals
    (``"45.5"`` is 4550; ``"45.505"`` is refused for EUR rather than rounded, and any decimals
    are refused for JPY). Raises ValueError for anything else: no exponents, signs other than
    a leading minus, separators, spaces or floats."""
    places = MINOR_UNITS.get(currency, 2)
    match = _DECIMAL.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError("Must be a decimal number such as 12.30.")
    sign, whole, fraction = match.group(1), match.group(2), match.group(3) or ""
    if len(fraction) > places:
        raise ValueError(f"{currency} has {places} decimal places; "
                         f"send at most {places}." if places else
                         f"{currency} has no decimal places; send a whole number.")
    minor = int(whole) * 10 ** places + int(fraction.ljust(places, "0") or "0")
    return -minor if sign else minor


def decimal_to_minor(value: Decimal, currency: str) -> Tuple[int, bool]:
    """``Decimal("45.505"), "EUR"`` -> ``(4550, False)``: minor units rounded half-even past
    the currency's decimals, and whether that was exact. The one Decimal -> minor units step
    (imports round and warn, drafters refuse what is not exact: :func:`exact_minor`)."""
    scaled = value.scaleb(MINOR_UNITS.get(currency, 2))
    whole = scaled.to_integral_value(rounding=ROUND_HALF_EVEN)
    return int(whole), whole == scaled


def exact_minor(value: Decimal, currency: str) -> Optional[int]:
    """Minor units of ``value`` in ``currency``, or None when it has more decimals."""
    minor, exact = decimal_to_minor(value, currency)
    return minor if exact else None


_DECIMAL = re.compile(r"(-)?([0-9]{1,30})(?:\.([0-9]{1,30}))?")
