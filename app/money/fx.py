"""Exact currency conversion: rates as decimal strings, amounts as ints, never a float.

A rate says what 1 unit of a currency is worth in another (``"1.0832"``: 1 EUR = 1.0832
USD). Converting ``amount`` minor units of ``source`` into ``target`` minor units is
``round_half_even(amount * rate * 10**(exp(target) - exp(source)))``, computed with
``decimal`` at a precision no amount can exhaust. Everything that must still sum afterwards
(an expense's payments, its owed shares, a currency's nets) is apportioned from the
converted total by the split rounding rule (app.money.splits), so sums are exact."""
from __future__ import annotations

import re
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext
from typing import Dict, List, Mapping

from app.errors import Invalid
from app.money.currencies import exponent
from app.money.splits import MAX_AMOUNT, apportion

MAX_RATE_DIGITS = 12
AUTO = "auto"
_RATE = re.compile(r"[0-9]{1,24}(?:\.[0-9]{1,24})?")
# 10^11 amounts times 12-digit rates times a scale of at most 10^4: 50 digits is plenty.
_PRECISION = 50


def parse_rate(text, field: str = "exchangeRate") -> Decimal:
    """A rate string -> Decimal: digits with an optional fraction, > 0, <= 12 significant
    digits. Anything else (a JSON number, an exponent, a sign) is Invalid."""
    if not isinstance(text, str) or not _RATE.fullmatch(text):
        raise Invalid(f"{field} must be a decimal string such as \"1.0832\".",
                      details={field: ["Must be a decimal string such as \"1.0832\"."]})
    rate = Decimal(text)
    if rate <= 0:
        raise Invalid(f"{field} must be greater than 0.", details={field: ["Must be > 0."]})
    if len(rate.normalize().as_tuple().digits) > MAX_RATE_DIGITS:
        raise Invalid(f"{field} has at most {MAX_RATE_DIGITS} significant digits.",
                      details={field: [f"At most {MAX_RATE_DIGITS} significant digits."]})
    return rate


def rate_text(rate: Decimal) -> str:
    """The canonical string of a rate (no exponent, no trailing zeros)."""
    text = format(rate.normalize(), "f")
    return text


def significant(value: Decimal) -> Decimal:
    """``value`` rounded half-even to at most 12 significant digits (a derived or crossed rate)."""
    return Context(prec=MAX_RATE_DIGITS, rounding=ROUND_HALF_EVEN).plus(value)


def _scale(source: str, target: str) -> Decimal:
    return Decimal(10) ** (exponent(target) - exponent(source))


def convert(amount: int, rate: Decimal, source: str, target: str) -> int:
    """``amount`` minor units of ``source`` in minor units of ``target``, half-even."""
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        exact = Decimal(amount) * rate * _scale(source, target)
        return int(exact.to_integral_value(rounding=ROUND_HALF_EVEN))


def derive_rate(amount: int, group_amount: int, source: str, target: str) -> Decimal:
    """The rate that ``group_amount`` (really charged, target minor units) implies."""
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        exact = Decimal(group_amount) / (Decimal(amount) * _scale(source, target))
    return significant(exact)


def check_group_amount(value, field: str = "groupAmount") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_AMOUNT:
        raise Invalid(f"{field} must be an integer from 1 to {MAX_AMOUNT}.",
                      details={field: [f"Must be an integer from 1 to {MAX_AMOUNT}."]})
    return value


def converted_total(amount: int, rate: Decimal, source: str, target: str) -> int:
    """``convert`` for a row's total, refused when it rounds to nothing or overflows."""
    total = convert(amount, rate, source, target)
    if not 0 < total <= MAX_AMOUNT:
        raise Invalid(f"{amount} {source} at {rate_text(rate)} is {total} {target} minor units;"
                      f" it must be from 1 to {MAX_AMOUNT}.",
                      details={"exchangeRate": ["Converts the amount to nothing or too much."]})
    return total


def apportion_amounts(total: int, amounts: List[int]) -> List[int]:
    """``total`` split in proportion to ``amounts`` (ints >= 0, positive sum); sums to total."""
    return apportion(total, amounts)


def convert_nets(nets: Mapping[str, int], rate: Decimal, source: str,
                 target: str) -> Dict[str, int]:
    """Nets summing to 0 in ``source`` -> nets summing to exactly 0 in ``target``.

    What the creditors are owed is converted once; creditors and debtors each get it
    apportioned in proportion to their nets, so the two sides cancel exactly."""
    ordered = sorted((pid, value) for pid, value in nets.items() if value)
    credit = [(pid, v) for pid, v in ordered if v > 0]
    debit = [(pid, -v) for pid, v in ordered if v < 0]
    if not credit:
        return {}
    total = convert(sum(v for _, v in credit), rate, source, target)
    out: Dict[str, int] = {}
    if total:
        for side, sign in ((credit, 1), (debit, -1)):
            for (pid, _), share in zip(side, apportion(total, [v for _, v in side]), strict=True):
                out[pid] = sign * share
    return {pid: v for pid, v in out.items() if v}
