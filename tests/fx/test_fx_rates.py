"""Reference rates: the embedded ECB history, the Maintenance job's daily fetch (from a local
HTTP server, never the internet) and lookups reading the stored days after the history."""
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from app.errors import Unprocessable
from app.money import ecb, fx
from app.currencies import daily, rates
from app.maintenance import run_maintenance
from tests.support.settings import installed

DAILY = b"""<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"
 xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<gesmes:subject>Reference rates</gesmes:subject>
<Cube><Cube time="2026-11-27"><Cube currency="USD" rate="1.2000"/>
<Cube currency="JPY" rate="180.00"/></Cube></Cube></gesmes:Envelope>"""


@pytest.fixture
def server():
    replies = {"body": DAILY, "status": 200}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(replies["status"])
            self.end_headers()
            self.wfile.write(replies["body"])

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/daily.xml", replies
    httpd.shutdown()


def test_embedded_history_falls_back_over_weekends_and_holidays():
    assert rates.reference_rate("USD", "EUR", "2024-06-16")[1] == "2024-06-14"  # a Sunday
    assert rates.reference_rate("EUR", "USD", "2025-05-01")[1] == "2025-04-30"  # Labour Day
    assert rates.reference_rate("EUR", "USD", "1999-01-04")[1] == "1999-01-04"  # first day
    with pytest.raises(Unprocessable) as before:
        rates.reference_rate("EUR", "USD", "1999-01-03")
    assert before.value.code == "RATE_UNAVAILABLE"
    with pytest.raises(Unprocessable):
        rates.reference_rate("EUR", "VND", "2024-06-14")  # the ECB does not publish VND
    with pytest.raises(Unprocessable):
        rates.reference_rate("EUR", "RUB", "2024-06-14")  # no longer published


def test_the_daily_fetch_stores_a_day_and_lookups_after_the_history_read_it(aws, server,
                                                                             monkeypatch):
    url, _ = server
    assert ecb.last_embedded_day() < "2026-11-27"
    with installed(fx_rates_url=url):
        assert run_maintenance("fxRates") == {"fxRatesStored": 1, "fxRatesFailed": 0}
    assert daily.fetch_daily(url) == {"fxRatesStored": 0, "fxRatesFailed": 0}  # once a day
    rate, day = rates.reference_rate("USD", "JPY", "2026-11-29")  # the Sunday after
    assert (fx.rate_text(rate), day) == ("150", "2026-11-27")
    # Before the stored day, the embedded history still answers.
    assert rates.reference_rate("USD", "JPY", "2026-11-20")[1] == ecb.last_embedded_day()


@pytest.mark.parametrize("reply", [{"status": 500, "body": b"down"},
                                   {"status": 200, "body": b"<not-xml"},
                                   {"status": 200, "body": b"<a/>"}])
def test_a_failed_fetch_never_fails_the_job(aws, server, reply):
    url, replies = server
    replies.update(reply)
    assert daily.fetch_daily(url) == {"fxRatesStored": 0, "fxRatesFailed": 1}
    assert daily.fetch_daily("http://127.0.0.1:9/none") == {"fxRatesStored": 0,
                                                            "fxRatesFailed": 1}


def test_without_a_configured_url_nothing_is_fetched(aws):
    with installed(fx_rates_url=None):
        assert daily.fetch_daily() == {"fxRatesStored": 0, "fxRatesFailed": 0}
