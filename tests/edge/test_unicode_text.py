"""A lone UTF-16 surrogate can't be stored as UTF-8: every route refuses it with a 400, at the
edge, whatever field, query parameter or path segment carries it."""
from __future__ import annotations

import json
from pathlib import Path

import awsgi
import pytest

EVENTS = Path(__file__).resolve().parents[2] / "events"
LONE = "\\ud800"  # as the JSON escape a client sends; json.dumps would refuse nothing here


@pytest.fixture
def world(client, sign_in):
    """An owner with a group, an expense and the group's invite code."""
    headers, _ = sign_in("sur@example.com")
    group = client.post("/groups", json={"name": "G", "currency": "EUR"}, headers=headers).get_json()
    gid, pid = group["groupId"], group["myParticipantId"]
    expense = client.post(f"/groups/{gid}/expenses", headers=headers, json={
        "description": "Dinner", "amount": 100, "splitMode": "EQUAL",
        "payments": [{"participantId": pid, "amount": 100}],
        "splits": [{"participantId": pid}]}).get_json()
    code = client.get(f"/groups/{gid}/invite", headers=headers).get_json()["code"]
    return headers, gid, pid, expense["expenseId"], code


def _raw(template: str, **ids) -> str:
    """A JSON body text with the lone-surrogate escape spliced in where ``@`` stands."""
    return template.replace("@", LONE).format(**ids)


CASES = [
    ("POST", "/groups", '{{"name": "a@b", "currency": "EUR"}}'),
    ("PATCH", "/groups/{gid}", '{{"name": "@"}}'),
    ("PATCH", "/users/me", '{{"displayName": "Ada @"}}'),
    ("POST", "/groups/{gid}/participants", '{{"displayName": "@"}}'),
    ("POST", "/groups/{gid}/expenses/{eid}/comments", '{{"body": "hi @"}}'),
    ("POST", "/groups/{gid}/expenses", '{{"description": "@", "amount": 1, "splitMode": "EQUAL",'
                                      ' "payments": [{{"participantId": "{pid}", "amount": 1}}],'
                                      ' "splits": [{{"participantId": "{pid}"}}]}}'),
    ("POST", "/groups/{gid}/expenses", '{{"description": "d", "amount": 1, "items": [{{"name": '
                                      '"x@", "amount": 1, "splitMode": "EQUAL", "splits": '
                                      '[{{"participantId": "{pid}"}}]}}], "payments": '
                                      '[{{"participantId": "{pid}", "amount": 1}}]}}'),
    ("POST", "/groups/{gid}/join-requests", '{{"code": "{code}@", "mode": "NEW"}}'),
    ("POST", "/users/me/identities", '{{"provider": "google", "subject": "@"}}'),
    ("POST", "/groups", '{{"name": "ok", "currency": "EUR", "@": 1}}'),  # in a key
]


@pytest.mark.parametrize("method,path,body", CASES)
@pytest.mark.parametrize("idempotent", [False, True])
def test_lone_surrogate_in_any_body_field_is_a_400(client, world, method, path, body, idempotent):
    headers, gid, pid, eid, code = world
    headers = {**headers, "Content-Type": "application/json"}
    if idempotent:
        headers["Idempotency-Key"] = "surrogate-1"
    reply = client.open(path.format(gid=gid, eid=eid), method=method, headers=headers,
                        data=_raw(body, gid=gid, pid=pid, code=code).encode())
    assert reply.status_code == 400, reply.get_data(as_text=True)
    error = reply.get_json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert any("Unicode" in m for messages in error["details"].values() for m in messages)


def test_surrogate_pairs_are_fine(client, world):
    """A proper pair (an emoji) is valid Unicode and is stored as sent."""
    headers, gid, *_ = world
    reply = client.post("/groups", headers={**headers, "Content-Type": "application/json"},
                        data=b'{"name": "Trip \\ud83c\\udf89", "currency": "EUR"}')
    assert reply.status_code == 201
    assert reply.get_json()["name"] == "Trip \U0001F389"


def test_query_string_holding_a_surrogate_is_a_400(app, world):
    """A server that hands over decoded text (not WSGI's byte string) used to crash werkzeug.

    Called as plain WSGI: the test client itself cannot build a request from such an environ."""
    from werkzeug.test import EnvironBuilder, run_wsgi_app

    headers, gid, *_ = world
    environ = EnvironBuilder(path=f"/groups/{gid}/invite/preview", headers=headers).get_environ()
    environ["QUERY_STRING"] = "code=\ud800"
    body, status, _ = run_wsgi_app(app, environ, buffered=True)
    assert status.startswith("400"), status
    assert json.loads(b"".join(body))["error"]["code"] == "VALIDATION_ERROR"


def _api_event(path: str, headers: dict) -> dict:
    event = json.loads((EVENTS / "api_get_users_me.json").read_text())
    event.update(path=path, httpMethod="GET", headers={**event["headers"], **headers},
                 multiValueHeaders=None)
    return event


def test_lambda_path_segment_with_a_surrogate_is_a_400(app, world):
    """aws-wsgi passes API Gateway's decoded path through: a surrogate in it is a 400."""
    headers, *_ = world
    reply = awsgi.response(app, _api_event("/groups/\ud800", headers), None)
    assert int(reply["statusCode"]) == 400
    assert json.loads(reply["body"])["error"]["code"] == "VALIDATION_ERROR"


def test_lambda_path_with_non_latin1_text_is_routed_not_crashed(app, world):
    """A path past U+00FF (valid Unicode) reaches routing: 404 for an unknown group, not a crash."""
    headers, *_ = world
    reply = awsgi.response(app, _api_event("/groups/\u20ac", headers), None)
    assert int(reply["statusCode"]) == 404
    assert json.loads(reply["body"])["error"]["code"] == "NOT_FOUND"
