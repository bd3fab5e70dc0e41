"""The per-IP limit keys on the address CloudFront set, never on a variant spelling of its header.

aws-wsgi turns every header name into an environ key by upper-casing it and replacing ``-`` by
``_``, so a client's own ``cloudfront_viewer_address`` header lands on the
same key as CloudFront's ``CloudFront-Viewer-Address``; later in the event, it wins.
app/api/lambda_adapter.py reads the address from the raw event instead."""
from __future__ import annotations

import uuid

import awsgi
import pytest

from app.api.origin import VIEWER_ADDRESS
from app.local.triggers import canned_event
from models.rate_limits import IP_SUBJECT, RateCounter
from tests.handlers.test_handlers import call, edge_api, lambda_env  # noqa: F401 — fixtures


def _ip_counters(address: str) -> list:
    prefix = RateCounter.subject(IP_SUBJECT, address) + "#"
    return [row.Key for row in RateCounter.scan() if row.Key.startswith(prefix)]


def _addresses() -> tuple:
    """A real and a spoofed address no other test's requests spend from: two IPv6 documentation
    addresses with 64 random bits each (250 IPv4 choices collided across this module's tests)."""
    real, spoof = uuid.uuid4().int, uuid.uuid4().int
    return (f"2001:db8:1::{real >> 96 & 0xffff:x}:{real >> 64 & 0xffff:x}:{real & 0xffff:x}",
            f"2001:db8:2::{spoof >> 96 & 0xffff:x}:{spoof >> 64 & 0xffff:x}:{spoof & 0xffff:x}")


def _spoofed(real: str, spoof: str, name: str) -> dict:
    """A request to an unknown path (metered by address) through CloudFront, with a client's
    own header spelled ``name`` after the one CloudFront set."""
    event = canned_event("api_get_missing.json")
    for headers in (event["headers"], event["multiValueHeaders"]):
        headers.pop("cloudfront-viewer-address", None)
    event["headers"]["cloudfront-viewer-address"] = f"{real}:50123"
    event["multiValueHeaders"]["cloudfront-viewer-address"] = [f"{real}:50123"]
    event["headers"][name] = f"{spoof}:443"
    event["multiValueHeaders"][name] = [f"{spoof}:443"]
    return event


@pytest.mark.parametrize("name", ["cloudfront_viewer_address", "CLOUDFRONT_VIEWER_ADDRESS",
                                  "cloudfront-viewer_address", "Cloudfront_Viewer-Address"])
def test_a_variant_spelling_of_the_viewer_header_does_not_move_the_per_ip_limit(edge_api, name):
    real, spoof = _addresses()

    status, _, body = call(edge_api, _spoofed(real, spoof, name))

    assert status == 404 and body["error"]["code"] == "NOT_FOUND"
    assert len(_ip_counters(real)) == 1  # spent from the address CloudFront saw
    assert _ip_counters(spoof) == []


def test_the_header_cloudfront_sets_is_read_in_any_case(edge_api):
    real, _ = _addresses()
    event = canned_event("api_get_missing.json")
    event["headers"].pop("cloudfront-viewer-address")
    event["headers"]["CloudFront-Viewer-Address"] = f"{real}:50123"

    assert call(edge_api, event)[0] == 404
    assert len(_ip_counters(real)) == 1


def test_two_spellings_of_the_exact_header_are_trusted_for_neither(edge_api):
    """CloudFront sets one; two (differing in case only) came from a crafted event."""
    real, other = _addresses()
    event = canned_event("api_get_missing.json")
    event["headers"]["cloudfront-viewer-address"] = f"{real}:50123"
    event["headers"]["CloudFront-Viewer-Address"] = f"{other}:50123"

    assert call(edge_api, event)[0] == 404
    assert _ip_counters(real) == [] and _ip_counters(other) == []
    assert len(_ip_counters("130.176.12.34")) >= 1  # the gateway's sourceIp: the fallback


def test_aws_wsgi_still_merges_the_underscore_spelling_into_the_viewer_key():
    """The reason for the adapter's workaround: the day aws-wsgi keeps the two apart (or drops
    underscore names, as Werkzeug and nginx do), this fails and the workaround can go."""
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    awsgi.response(app, _spoofed("203.0.113.9", "198.51.100.66", "cloudfront_viewer_address"),
                   None)
    assert seen[VIEWER_ADDRESS] == "198.51.100.66:443"
