"""ISO 4217 currencies in circulation and their minor-unit exponents (amounts are minor units)."""
from __future__ import annotations

import re

_ZERO = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
_THREE = "BHD IQD JOD KWD LYD OMR TND"
_FOUR = "CLF UYW"
_TWO = """AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP
BYN BZD CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS
GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD
LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN
PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL
THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG"""

MINOR_UNITS = {code: exponent for exponent, codes in ((0, _ZERO), (2, _TWO), (3, _THREE),
                                                      (4, _FOUR)) for code in codes.split()}
CODES = frozenset(MINOR_UNITS)


def format_minor(amount: int, currency: str) -> str:
    """``4550, "EUR"`` -> ``"45.50"`` with exact integer arithmetic (no floats)."""
    exponent = MINOR_UNITS.get(currency, 2)
    sign = "-" if amount < 0 else ""
    whole, fraction = divmod(abs(amount), 10 ** exponent)
    return f"{sign}{whole}.{fraction:0{exponent}d}" if exponent else f"{sign}{whole}"


def parse_minor(text: str, currency: str) -> int:
    """``"45.50", "EUR"`` -> ``4550``, exactly: the inverse of :func:`format_minor`.

    Accepts an optional leading minus, digits, and at most the currency's number of decimals
    (``"45.5"`` is 4550; ``"45.505"`` is refused for EUR rather than rounded, and any decimals
    are refused for JPY). Raises ValueError for anything else: no exponents, signs other than
    a leading minus, separators, spaces or floats."""
    exponent = MINOR_UNITS.get(currency, 2)
    match = _DECIMAL.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError("Must be a decimal number such as 12.30.")
    sign, whole, fraction = match.group(1), match.group(2), match.group(3) or ""
    if len(fraction) > exponent:
        raise ValueError(f"{currency} has {exponent} decimal places; "
                         f"send at most {exponent}." if exponent else
                         f"{currency} has no decimal places; send a whole number.")
    minor = int(whole) * 10 ** exponent + int(fraction.ljust(exponent, "0") or "0")
    return -minor if sign else minor


_DECIMAL = re.compile(r"(-)?([0-9]{1,30})(?:\.([0-9]{1,30}))?")
