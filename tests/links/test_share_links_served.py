"""Share links end to end through `python -m app serve`, real HTTP (the shared served_app):
a guest without an account opens a link, starts a session, adds an expense a member sees;
revoking ends the session at once; PIN lockout; a VIEWER link cannot write; a session
reaches nothing outside its group; claim keeps the participant and its expenses; a claimed
or removed guest ends its sessions."""
from __future__ import annotations

import json
import urllib.error
import urllib.request


def _raw(served_app, method, path, body=None, token=None):
    """(status, body, headers): served_app.call without losing the headers (Retry-After)."""
    request = urllib.request.Request(served_app.url + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read() or b"null"), reply.headers
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), error.headers


def _group(served_app, email):
    token, user_id = served_app.sign_in(email, "Olive")
    status, group = served_app.call("POST", "/groups", {"name": "Trip", "currency": "EUR"},
                                    token=token)
    assert status == 201, group
    return token, group["groupId"], group["myParticipantId"]


def _guest(served_app, token, gid, name):
    status, guest = served_app.call("POST", f"/groups/{gid}/participants",
                                    {"displayName": name}, token=token)
    assert status == 201, guest
    return guest["participantId"]


def _link(served_app, token, gid, **body):
    status, link = served_app.call("POST", f"/groups/{gid}/links",
                                   {"role": "MEMBER", **body}, token=token)
    assert status == 201, link
    return link


def _expense(served_app, session, gid, payer, name="Taxi"):
    return served_app.call("POST", f"/groups/{gid}/expenses", {
        "description": name, "amount": 1200, "date": "2026-05-01",
        "payments": [{"participantId": payer, "amount": 1200}],
        "splits": [{"participantId": payer}], "splitMode": "EQUAL"}, token=session)


def test_open_session_write_revoke(served_app):
    owner, gid, _ = _group(served_app, "links-e2e-owner@example.com")
    link = _link(served_app, owner, gid)
    status, opened = served_app.call("POST", "/links/open", {"token": link["token"]})
    assert status == 200 and opened["name"] == "Trip" and opened["guests"] == []
    status, session = served_app.call("POST", "/links/session",
                                      {"token": link["token"], "displayName": "Bo"})
    assert status == 201, session
    bo, access = session["participantId"], session["accessToken"]
    status, created = _expense(served_app, access, gid, bo)
    assert status == 201, created
    status, listed = served_app.call("GET", f"/groups/{gid}/expenses", token=owner)
    assert [e["expenseId"] for e in listed["items"]] == [created["expenseId"]]
    status, activity = served_app.call("GET", f"/groups/{gid}/activity", token=owner)
    assert activity["items"][0]["summary"].startswith("Bo (by link) added Taxi")
    status, _ = served_app.call("DELETE", f"/groups/{gid}/links/{link['linkId']}", token=owner)
    assert status == 204
    status, refused = _expense(served_app, access, gid, bo, "After")
    assert status == 401, refused
    assert served_app.call("GET", f"/groups/{gid}", token=access)[0] == 401


def test_pin_lockout(served_app):
    owner, gid, _ = _group(served_app, "links-e2e-pin@example.com")
    _guest(served_app, owner, gid, "Gus")
    link = _link(served_app, owner, gid, pin="97531")
    assert served_app.call("POST", "/links/open", {"token": link["token"]}) == (
        200, {"pinRequired": True})
    for _ in range(5):
        status, body, _ = _raw(served_app, "POST", "/links/session",
                               {"token": link["token"], "pin": "1111"})
        assert status == 401 and body["error"]["code"] == "PIN_INVALID"
    status, body, headers = _raw(served_app, "POST", "/links/open",
                                 {"token": link["token"], "pin": "97531"})
    assert status == 429 and body["error"]["code"] == "LINK_LOCKED"
    assert 0 < int(headers["Retry-After"]) <= 900


def test_viewer_links_read_only_and_nothing_outside_the_group(served_app):
    owner, gid, _ = _group(served_app, "links-e2e-viewer@example.com")
    other, other_gid, _ = _group(served_app, "links-e2e-other@example.com")
    gus = _guest(served_app, owner, gid, "Gus")
    link = _link(served_app, owner, gid, role="VIEWER", participantId=gus)
    status, session = served_app.call("POST", "/links/session", {"token": link["token"]})
    assert status == 201 and session["participantId"] == gus and session["role"] == "VIEWER"
    access = session["accessToken"]
    status, group = served_app.call("GET", f"/groups/{gid}", token=access)
    assert status == 200 and group["myParticipantId"] == gus and group["myRole"] == "VIEWER"
    assert _expense(served_app, access, gid, gus)[0] == 403
    assert served_app.call("GET", f"/groups/{other_gid}", token=access)[0] == 404
    for method, path in (("GET", "/users/me"), ("GET", "/developer/tokens"),
                         ("GET", f"/groups/{gid}/invite"), ("GET", f"/groups/{gid}/links"),
                         ("DELETE", f"/groups/{gid}")):
        assert served_app.call(method, path, token=access)[0] == 403, (method, path)
    status, _ = served_app.call("POST", "/mcp", {"jsonrpc": "2.0", "id": 1,
                                                 "method": "tools/list"}, token=access)
    assert status == 401


def test_claim_keeps_the_participant_and_ends_sessions(served_app):
    owner, gid, _ = _group(served_app, "links-e2e-claim@example.com")
    gus = _guest(served_app, owner, gid, "Gus")
    link = _link(served_app, owner, gid)
    status, session = served_app.call("POST", "/links/session",
                                      {"token": link["token"], "participantId": gus})
    access = session["accessToken"]
    expense = _expense(served_app, access, gid, gus)[1]["expenseId"]
    user, user_id = served_app.sign_in("links-e2e-gus@example.com", "Gus Real")
    status, claimed = served_app.call("POST", f"/groups/{gid}/links/claim",
                                      {"sessionToken": access}, token=user)
    assert status == 200 and claimed["participantId"] == gus and claimed["userId"] == user_id
    status, mine = served_app.call("GET", f"/groups/{gid}/expenses/{expense}", token=user)
    assert status == 200 and mine["payments"][0]["participantId"] == gus
    assert served_app.call("GET", f"/groups/{gid}", token=access)[0] == 401
    # a removed guest ends its sessions too
    bo = _guest(served_app, owner, gid, "Bo")
    status, other = served_app.call("POST", "/links/session",
                                    {"token": link["token"], "participantId": bo})
    assert served_app.call("DELETE", f"/groups/{gid}/participants/{bo}", token=owner)[0] == 204
    assert served_app.call("GET", f"/groups/{gid}", token=other["accessToken"])[0] == 401
