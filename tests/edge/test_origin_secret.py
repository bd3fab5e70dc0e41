"""The origin secret CloudFront adds (app/api/origin.py): its ring, its re-read on rotation, and
the client address it makes trustworthy. The handler wiring is in tests/handlers."""
from __future__ import annotations

import json

import pytest
from flask import Flask

from app.developer.gate import source_ip
from app.api.origin import VERIFIED, OriginSecret, require_origin_secret, viewer_ip


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_both_values_of_the_ring_pass_and_nothing_else():
    secret = OriginSecret(lambda: json.dumps({"current": "new-one", "previous": "old-one"}))

    assert secret.accepts("new-one") and secret.accepts("old-one")
    assert not secret.accepts("") and not secret.accepts("new-on") and not secret.accepts("NEW-ONE")


def test_a_plain_value_is_a_ring_of_one_and_an_empty_ring_is_refused():
    assert OriginSecret(lambda: "just-this").accepts("just-this")
    with pytest.raises(RuntimeError):
        OriginSecret(lambda: json.dumps({"current": "", "previous": ""})).accepts("")


def test_a_rotation_is_picked_up_by_a_reread_at_most_once_a_minute():
    stored = {"value": json.dumps({"current": "first", "previous": ""})}
    reads = []
    clock = Clock()

    def read():
        reads.append(clock.now)
        return stored["value"]

    secret = OriginSecret(read, clock=clock)
    assert secret.accepts("first") and len(reads) == 1
    stored["value"] = json.dumps({"current": "second", "previous": "first"})
    clock.now += 10
    assert not secret.accepts("second")  # read 10 s ago: a stranger's guesses cost no reads
    assert not secret.accepts("guess") and len(reads) == 1
    clock.now += 60
    assert secret.accepts("second") and len(reads) == 2  # CloudFront's new value, re-read once
    assert secret.accepts("first")


def _serve(secret, environ_extra=None):
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    guarded = require_origin_secret(app, secret)
    replies = []
    body = guarded({"PATH_INFO": "/health", **(environ_extra or {})},
                   lambda status, headers: replies.append((status, headers)))
    return replies[0][0], b"".join(body), seen


def test_the_header_is_consumed_and_the_request_marked_as_through_the_edge():
    status, _, seen = _serve(OriginSecret(lambda: "s3cret"), {"HTTP_X_ORIGIN_VERIFY": "s3cret"})

    assert status == "200 OK"
    assert "HTTP_X_ORIGIN_VERIFY" not in seen and seen[VERIFIED] is True


def test_a_request_without_the_header_never_reaches_the_app():
    status, body, seen = _serve(OriginSecret(lambda: "s3cret"))

    assert status == "403 Forbidden" and not seen
    assert json.loads(body)["error"]["code"] == "FORBIDDEN"


def test_unconfigured_the_app_is_served_as_it_is():
    app = object()
    assert require_origin_secret(app, None) is app


EVENT = {"requestContext": {"identity": {"sourceIp": "130.176.12.34"}}}  # a CloudFront server


@pytest.mark.parametrize("through_edge,address,expected", [
    (True, "203.0.113.7:50123", "203.0.113.7"),
    (True, "2001:db8::7:50123", "2001:db8::7"),
    (True, None, "130.176.12.34"),
    (False, "203.0.113.7:50123", "130.176.12.34"),  # unproven: a client could send the header
])
def test_the_per_ip_limit_keys_on_the_viewer_behind_cloudfront(through_edge, address, expected):
    environ = {"awsgi.event": EVENT}
    if through_edge:
        environ[VERIFIED] = True
    headers = {"CloudFront-Viewer-Address": address} if address else {}
    with Flask(__name__).test_request_context("/", headers=headers, environ_base=environ):
        from flask import request

        assert viewer_ip(request.environ) == (expected if through_edge and address else None)
        assert source_ip() == expected
