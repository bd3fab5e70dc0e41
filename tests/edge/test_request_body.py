"""Bodies that used to answer 500 or be misread: deep nesting, huge integers, non-JSON media
types, chunked bodies past the cap; and Flask's default static route is gone."""
from __future__ import annotations

import http.client
import io
import json
import threading

import pytest
from werkzeug.serving import make_server

from app.core import idempotency

JSON = {"Content-Type": "application/json"}
DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def owner(client, sign_in):
    headers, _ = sign_in("body@example.com")
    group = client.post("/groups", json={"name": "G", "currency": "EUR"}, headers=headers).get_json()
    return headers, group["groupId"], group["myParticipantId"]


def _error(reply, status):
    assert reply.status_code == status, reply.get_data(as_text=True)
    return reply.get_json()["error"]


@pytest.mark.parametrize("body", [DEEP, '{"name": ' + DEEP + ', "currency": "EUR"}',
                                  '{"name": "x", "currency": "EUR", "extra": ' + DEEP + "}"])
@pytest.mark.parametrize("key", [None, "deep-1"])
def test_deeply_nested_json_is_a_400(client, owner, body, key):
    headers = {**owner[0], **JSON, **({"Idempotency-Key": key} if key else {})}
    error = _error(client.post("/groups", data=body, headers=headers), 400)
    assert error["code"] == "VALIDATION_ERROR"
    assert "nested" in error["message"]


def test_idempotency_fingerprint_survives_deep_json():
    """Defence in depth: the hash falls back to the raw bytes instead of recursing to death."""
    assert idempotency.request_hash("POST", "/groups", DEEP.encode()) == \
        idempotency.request_hash("POST", "/groups", DEEP.encode())


def test_integer_past_the_digit_limit_in_a_money_field_is_a_400(client, owner):
    headers, gid, pid = owner
    huge = "9" * 5000
    body = ('{"description": "d", "amount": %s, "splitMode": "EQUAL", "payments": '
            '[{"participantId": "%s", "amount": %s}], "splits": [{"participantId": "%s"}]}'
            % (huge, pid, huge, pid))
    error = _error(client.post(f"/groups/{gid}/expenses", data=body,
                               headers={**headers, **JSON, "Idempotency-Key": "big-int"}), 400)
    assert error["code"] == "VALIDATION_ERROR"


def test_nan_is_not_json(client, owner):
    body = '{"description": "d", "amount": NaN}'
    error = _error(client.post(f"/groups/{owner[1]}/expenses", data=body,
                               headers={**owner[0], **JSON}), 400)
    assert error["code"] == "VALIDATION_ERROR"


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_body_that_is_not_json_is_a_415(client, owner, content_type):
    headers = {**owner[0], **({"Content-Type": content_type} if content_type else {})}
    error = _error(client.post("/groups", data='{"name": "x", "currency": "EUR"}',
                               headers=headers), 415)
    assert error["code"] == "UNSUPPORTED_MEDIA_TYPE"
    assert error["details"] == {"Content-Type": [content_type or "(none)"]}


def test_json_suffix_media_types_and_bodyless_posts_still_work(client, owner):
    headers, gid, _ = owner
    reply = client.post("/groups", data='{"name": "x", "currency": "EUR"}',
                        headers={**headers, "Content-Type": "application/merge-patch+json"})
    assert reply.status_code == 201
    # A POST without a body needs no Content-Type (rotate takes none).
    assert client.post(f"/groups/{gid}/invite/rotate", headers=headers).status_code == 200


def test_chunked_body_past_the_cap_is_a_413_in_process(client, owner, app):
    """As a de-chunking server (werkzeug's, gunicorn) hands it over: no Content-Length."""
    body = b'{"name": "' + b"x" * (app.config["MAX_CONTENT_LENGTH"] + 10) + b'", "currency": "EUR"}'
    reply = client.post("/groups", input_stream=io.BytesIO(body),
                        headers={**owner[0], **JSON, "Transfer-Encoding": "chunked"},
                        environ_overrides={"wsgi.input_terminated": True})
    assert _error(reply, 413)["code"] == "PAYLOAD_TOO_LARGE"


def test_chunked_body_the_server_cannot_dechunk_is_refused_not_read_as_empty(client, owner):
    reply = client.post("/groups", input_stream=io.BytesIO(b'{"name": "x"}'),
                        headers={**owner[0], **JSON, "Transfer-Encoding": "chunked"})
    assert _error(reply, 411)["code"] == "LENGTH_REQUIRED"


def test_chunked_body_past_the_cap_is_a_413_when_served(app, owner):
    """The same through a real HTTP server (the one `python -m app serve` uses) on a free port."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=30)
        chunks = [b'{"name": "', *([b"x" * 8192] * 10), b'", "currency": "EUR"}']
        conn.putrequest("POST", "/groups")
        for name, value in {**owner[0], **JSON, "Transfer-Encoding": "chunked"}.items():
            conn.putheader(name, value)
        conn.endheaders()
        for chunk in chunks:
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        conn.send(b"0\r\n\r\n")
        reply = conn.getresponse()
        status, payload = reply.status, json.loads(reply.read())
        conn.close()
    finally:
        server.shutdown()
        thread.join()
    assert status == 413
    assert payload["error"]["code"] == "PAYLOAD_TOO_LARGE"


def test_there_is_no_static_route(client):
    """Flask's default /static/<path> would be an unauthenticated file route: it must not exist."""
    reply = client.get("/static/factory.py")
    assert _error(reply, 404)["code"] == "NOT_FOUND"
