"""Every reply of a full tour validates against the served /openapi.json, strictly.

The README's tour (sign in, group, guest, dinner, balances), then what a client does next:
an edit, comments, a settlement, the change feed and the activity feed, a conditional read
(304), deletions (204, and the change feed's `"data": null`), the error envelopes (400 for a
body with both expense forms, 401, 404, 409) and the /mcp 401 (`"id": null`). Then every
documented GET whose path ids the tour holds, so a route added later is walked too.
tests/contract/strict_document.py says what "strictly" means: required fields, types, no
undeclared field, null only where declared."""
from __future__ import annotations

import re

import pytest

from tests.contract.strict_document import documented_path, reply_problems, strict_document

DATE = "2026-12-01"


class Tour:
    """The Flask test client, judging each reply against the strict document."""

    def __init__(self, app, client):
        self.app, self.client = app, client
        self.document = strict_document(client.get("/openapi.json").get_json())
        self.problems: list[str] = []
        self.seen: set[tuple[str, str, int]] = set()
        self.headers: dict = {}

    def call(self, method: str, path: str, expect: int, *, headers=None, **kwargs):
        reply = self.client.open(path, method=method,
                                 headers=self.headers if headers is None else headers, **kwargs)
        template = documented_path(self.app, method, path)
        self.seen.add((method, template, reply.status_code))
        body = reply.get_json(silent=True) if reply.is_json else reply.get_data() or None
        self.problems += reply_problems(self.document, template, method, reply.status_code,
                                        reply.content_type, body)
        assert reply.status_code == expect, (method, path, reply.status_code, body)
        return reply, body


@pytest.fixture
def tour(app, client):
    return Tour(app, client)


def test_every_reply_of_a_full_tour_matches_the_document(tour):
    call = tour.call
    # The README's tour.
    _, token = call("POST", "/dev/tokens", 201,
                    json={"email": "ada@example.com", "displayName": "Ada"})
    tour.headers = {"Authorization": f"Bearer {token['accessToken']}"}
    _, group = call("POST", "/groups", 201, json={"name": "Lisbon trip", "currency": "EUR"})
    gid, ada = group["groupId"], group["myParticipantId"]
    _, bo = call("POST", f"/groups/{gid}/participants", 201, json={"displayName": "Bo"})
    bo = bo["participantId"]
    dinner = {"description": "Dinner", "date": DATE, "amount": 4250, "splitMode": "EQUAL",
              "payments": [{"participantId": ada, "amount": 4250}],
              "splits": [{"participantId": ada, "value": 1}, {"participantId": bo, "value": 1}]}
    _, expense = call("POST", f"/groups/{gid}/expenses", 201, json=dinner)
    eid = expense["expenseId"]
    _, balances = call("GET", f"/groups/{gid}/balances", 200)
    assert {b["participantId"]: b["net"] for b in balances["balances"]} == {ada: 2125,
                                                                              bo: -2125}
    # What a client does next.
    call("GET", "/users/me", 200)
    call("GET", "/users/me/groups", 200)
    call("GET", f"/groups/{gid}/expenses", 200)
    reply, _ = call("GET", f"/groups/{gid}/expenses/{eid}", 200)
    call("GET", f"/groups/{gid}/expenses/{eid}", 304,
         headers={**tour.headers, "If-None-Match": reply.headers["ETag"]})
    call("PATCH", f"/groups/{gid}/expenses/{eid}", 200,
         json={"version": expense["version"], "description": "Dinner at Ramiro"})
    _, comment = call("POST", f"/groups/{gid}/expenses/{eid}/comments", 201,
                      json={"body": "Bo, the prawns were yours"})
    call("GET", f"/groups/{gid}/expenses/{eid}/comments", 200)
    _, settlement = call("POST", f"/groups/{gid}/settlements", 201,
                         json={"payerId": bo, "payeeId": ada, "amount": 2125, "date": DATE})
    call("GET", f"/groups/{gid}/settlements", 200)
    call("GET", f"/groups/{gid}/settlements/{settlement['settlementId']}", 200)
    # A body with both expense forms is refused by the server, whatever the schema says.
    _, refused = call("POST", f"/groups/{gid}/expenses", 400, json={
        **dinner, "items": [{"description": "x", "amount": 4250, "splitMode": "EQUAL",
                             "splits": dinner["splits"]}]})
    assert refused["error"]["code"] == "VALIDATION_ERROR"
    # Every documented GET the tour's ids reach (routes other areas add are walked too).
    ids = {"groupId": gid, "expenseId": eid, "participantId": bo,
           "settlementId": settlement["settlementId"], "commentId": comment["commentId"],
           "userId": token["userId"]}
    walked = walk_every_get(tour, ids)
    assert len(walked) >= 25, walked
    # Deletions: 204 with no body, and the change feed's null data.
    call("DELETE", f"/groups/{gid}/expenses/{eid}/comments/{comment['commentId']}", 204)
    call("DELETE", f"/groups/{gid}/expenses/{eid}", 204)
    _, changes = call("GET", f"/groups/{gid}/changes", 200)
    assert any(c["op"] == "DELETE" and c["data"] is None for c in changes["changes"])
    _, activity = call("GET", f"/groups/{gid}/activity", 200)
    assert any(d["field"] == "description" for a in activity["items"] for d in a["diff"])
    # Error envelopes.
    call("GET", "/users/me", 401, headers={})
    call("GET", f"/groups/{gid}/expenses/{eid}", 404)
    call("DELETE", f"/groups/{gid}/participants/{ada}", 409)  # the owner cannot be removed
    _, rpc = call("POST", "/mcp", 401, headers={},
                  json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert rpc["id"] is None

    statuses = {status for _, _, status in tour.seen}
    assert {200, 201, 204, 304, 400, 401, 404, 409} <= statuses
    assert tour.problems == [], "\n".join(tour.problems)


def walk_every_get(tour: Tour, ids: dict) -> list[str]:
    """GET every documented path whose ids the tour holds and that needs no query."""
    walked = []
    for template, item in sorted(tour.document["paths"].items()):
        operation = item.get("get")
        names = re.findall(r"{(\w+)}", template)
        if operation is None or not set(names) <= set(ids) or any(
                p.get("required") and p.get("in") == "query"
                for p in operation.get("parameters", []) + item.get("parameters", [])):
            continue
        path = template.format(**ids)
        reply = tour.client.get(path, headers=tour.headers)
        tour.seen.add(("GET", template, reply.status_code))
        body = reply.get_json(silent=True) if reply.is_json else reply.get_data() or None
        tour.problems += reply_problems(tour.document, template, "GET", reply.status_code,
                                        reply.content_type, body)
        assert reply.status_code < 500, (path, reply.status_code)
        walked.append(f"{template} {reply.status_code}")
    return walked


def test_the_strict_document_refuses_undeclared_fields_and_nulls(tour):
    """The judge itself: a group reply with one field more, or a null where none is declared,
    or an undocumented status, is a problem."""
    ok = tour.call("POST", "/dev/tokens", 201, json={"email": "judge@example.com"})[1]
    tour.headers = {"Authorization": f"Bearer {ok['accessToken']}"}
    _, group = tour.call("POST", "/groups", 201, json={"name": "Judge", "currency": "EUR"})
    assert tour.problems == []
    judge = tour.document, "/groups", "POST", 201, "application/json"
    assert reply_problems(*judge, {**group, "surprise": 1})
    assert reply_problems(*judge, {**group, "name": None})
    assert reply_problems(tour.document, "/groups", "POST", 418, "application/json", group)
