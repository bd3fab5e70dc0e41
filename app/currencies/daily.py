"""The Maintenance job's daily fetch of the ECB publication into the fx-rates table.

A short timeout and a size cap; whatever goes wrong (no network, a slow or odd reply, a
failed write) is logged and counted, never raised: the other sweeps of the run still run,
and lookups keep falling back to the stored or embedded history."""
from __future__ import annotations

import urllib.error
import urllib.request

from pynamodb.exceptions import PynamoDBException

from app import config
from app.logs import logger
from app.money import ecb
from app.core.clock import now_iso
from app.core.conditional import put_if

# FX_RATES_URL (settings.fx_rates_url) is set on the Maintenance function in the template
# (the ECB's daily file); unset in local mode and tests, which never reach the internet (a
# test points it at a local server).
TIMEOUT_S = 5.0
MAX_BYTES = 64 * 1024  # the daily file is ~1.5 KB


def _download(url: str) -> bytes:
    if not url.startswith(("https://", "http://127.0.0.1", "http://localhost")):
        raise ValueError("refusing a non-https rates URL")
    with urllib.request.urlopen(url, timeout=TIMEOUT_S) as reply:  # noqa: S310 — checked above
        payload = reply.read(MAX_BYTES + 1)
    if len(payload) > MAX_BYTES:
        raise ValueError("reply too large")
    return payload


def fetch_daily(url: str | None = None) -> dict:
    """Store today's ECB publication once; ``{"fxRatesStored": 0|1, "fxRatesFailed": 0|1}``."""
    from models.fx_rates import FxRates

    url = url or config.current().fx_rates_url
    if not url:
        return {"fxRatesStored": 0, "fxRatesFailed": 0}
    try:
        day, rates = ecb.parse_daily_xml(_download(url))
        if day <= ecb.last_embedded_day():
            return {"fxRatesStored": 0, "fxRatesFailed": 0}
        if not put_if(FxRates(FxRates.key(day), Rates=rates, FetchedAt=now_iso()),
                      FxRates.Key.does_not_exist()):
            return {"fxRatesStored": 0, "fxRatesFailed": 0}  # already stored
        logger.info("fx_rates.stored", extra={"day": day, "currencies": len(rates)})
        return {"fxRatesStored": 1, "fxRatesFailed": 0}
    except PynamoDBException as error:
        logger.warning("fx_rates.store_failed", extra={"error": str(error)[:200]})
    except (OSError, ValueError, urllib.error.URLError) as error:
        logger.warning("fx_rates.fetch_failed", extra={"error": str(error)[:200]})
    return {"fxRatesStored": 0, "fxRatesFailed": 1}
