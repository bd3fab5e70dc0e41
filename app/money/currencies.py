"""ISO 4217 currencies in circulation and their minor-unit exponents (amounts are minor units)."""
from __future__ import annotations

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
