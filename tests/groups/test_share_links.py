"""Share links through the Flask test client on moto (docs/share-links.md): create, list,
revoke, open, sessions, what a session may reach, PIN lockout, the cap, claim."""
from __future__ import annotations

import threading

import pytest

from models.groups import LinkCount, ShareLink


def _link(client, owner, **body):
    body.setdefault("role", "MEMBER")
    reply = client.post(f"/groups/{owner.gid}/links", json=body, headers=owner.headers)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def _session(client, token, **body):
    reply = client.post("/links/session", json={"token": token, **body})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def _bearer(session):
    return {"Authorization": f"Bearer {session['accessToken']}"}


def test_the_token_is_shown_once_and_only_its_hash_is_stored(client, owner, add_guest):
    gus = add_guest("Gus")
    link = _link(client, owner, participantId=gus, label="for Gus", pin="1234")
    assert link["token"].startswith("tsl_") and link["pinRequired"] is True
    row = ShareLink.get(owner.gid, ShareLink.sort_key(link["linkId"]))
    secret = link["token"][-43:]  # tsl_<link>_<group>_<43 base64url characters, "_" among them>
    stored = {k: str(v) for k, v in row.attribute_values.items()}
    assert not any(secret in v or "1234" == v for v in stored.values())
    assert row.SecretHash.startswith("hmac-sha256:") and row.PinSalt and row.PinHash
    listed = client.get(f"/groups/{owner.gid}/links", headers=owner.headers).get_json()
    assert [item["linkId"] for item in listed["items"]] == [link["linkId"]]
    assert "token" not in listed["items"][0]


def test_open_and_session_act_as_the_guest(client, owner, add_guest):
    gus = add_guest("Gus")
    link = _link(client, owner)
    opened = client.post("/links/open", json={"token": link["token"]}).get_json()
    assert opened["groupId"] == owner.gid and opened["role"] == "MEMBER"
    assert opened["guests"] == [{"participantId": gus, "displayName": "Gus"}]
    session = _session(client, link["token"], participantId=gus)
    group = client.get(f"/groups/{owner.gid}", headers=_bearer(session)).get_json()
    assert group["myParticipantId"] == gus and group["myRole"] == "MEMBER"
    reply = client.post(f"/groups/{owner.gid}/expenses", headers=_bearer(session), json={
        "description": "Taxi", "amount": 1200, "date": "2026-05-01",
        "payments": [{"participantId": gus, "amount": 1200}],
        "splits": [{"participantId": gus}, {"participantId": owner.pid}],
        "splitMode": "EQUAL"})
    assert reply.status_code == 201, reply.get_json()
    seen = client.get(f"/groups/{owner.gid}/expenses", headers=owner.headers).get_json()
    assert [e["description"] for e in seen["items"]] == ["Taxi"]


def test_a_wrong_token_is_404(client, owner):
    link = _link(client, owner)
    wrong = link["token"][:-4] + ("AAAA" if not link["token"].endswith("AAAA") else "BBBB")
    for body in ({"token": wrong}, {"token": "tsl_nonsense"}, {"token": "x" * 50}):
        assert client.post("/links/open", json=body).status_code == 404


def test_revocation_refuses_the_next_request(client, owner, add_guest):
    gus = add_guest("Gus")
    link = _link(client, owner)
    session = _session(client, link["token"], participantId=gus)
    assert client.get(f"/groups/{owner.gid}", headers=_bearer(session)).status_code == 200
    assert client.delete(f"/groups/{owner.gid}/links/{link['linkId']}",
                         headers=owner.headers).status_code == 204
    assert client.get(f"/groups/{owner.gid}", headers=_bearer(session)).status_code == 401
    assert client.post("/links/open", json={"token": link["token"]}).status_code == 404
    assert LinkCount.get(*LinkCount.key(owner.gid)).Live == 0


def test_a_session_reaches_nothing_outside_its_group(client, owner, add_guest, sign_in):
    gus = add_guest("Gus")
    session = _session(client, _link(client, owner)["token"], participantId=gus)
    other_headers, _ = sign_in("other@example.com")
    other = client.post("/groups", json={"name": "Else", "currency": "EUR"},
                        headers=other_headers).get_json()["groupId"]
    headers = _bearer(session)
    assert client.get(f"/groups/{other}", headers=headers).status_code == 404
    assert client.get(f"/groups/{other}/expenses", headers=headers).status_code == 404
    for method, path in (("GET", "/users/me"), ("GET", "/users/me/groups"),
                         ("GET", "/developer/tokens"), ("GET", f"/groups/{owner.gid}/invite"),
                         ("GET", f"/groups/{owner.gid}/links"),
                         ("DELETE", f"/groups/{owner.gid}"),
                         ("POST", f"/groups/{owner.gid}/leave")):
        reply = client.open(path, method=method, headers=headers, json={} if method == "POST"
                            else None)
        assert reply.status_code == 403, (method, path, reply.get_json())
    mcp = client.post("/mcp", headers=headers, json={"jsonrpc": "2.0", "id": 1,
                                                      "method": "tools/list"})
    assert mcp.status_code == 401
    # its realtime token lists its own group only
    issued = client.post("/realtime/token", headers=headers).get_json()
    assert issued["channels"] == [f"/groups/{owner.gid}"]


def test_a_viewer_link_cannot_write(client, owner, add_guest):
    gus = add_guest("Gus")
    session = _session(client, _link(client, owner, role="VIEWER")["token"], participantId=gus)
    reply = client.post(f"/groups/{owner.gid}/expenses", headers=_bearer(session), json={
        "description": "Taxi", "amount": 100, "date": "2026-05-01",
        "payments": [{"participantId": gus, "amount": 100}],
        "splits": [{"participantId": gus}], "splitMode": "EQUAL"})
    assert reply.status_code == 403
    reply = client.post("/links/session", json={"token": _link(client, owner, role="VIEWER")[
        "token"], "displayName": "Bo"})
    assert reply.status_code == 403


def test_five_wrong_pins_lock_the_link(client, owner, add_guest):
    add_guest("Gus")
    link = _link(client, owner, pin="2468")
    assert client.post("/links/open", json={"token": link["token"]}).get_json() == {
        "pinRequired": True}
    for _ in range(5):
        reply = client.post("/links/open", json={"token": link["token"], "pin": "0000"})
        assert reply.status_code == 401 and reply.get_json()["error"]["code"] == "PIN_INVALID"
    locked = client.post("/links/open", json={"token": link["token"], "pin": "2468"})
    assert locked.status_code == 429 and locked.get_json()["error"]["code"] == "LINK_LOCKED"
    assert 0 < int(locked.headers["Retry-After"]) <= 900


def test_at_most_twenty_live_links_even_racing(client, owner):
    for _ in range(18):
        _link(client, owner)
    replies = []

    def create():
        replies.append(client.post(f"/groups/{owner.gid}/links", json={"role": "VIEWER"},
                                   headers=owner.headers).status_code)

    threads = [threading.Thread(target=create) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(replies).count(201) == 2 and sorted(replies).count(409) == 2
    assert len(list(ShareLink.of_group(owner.gid))) == 20


def test_claim_keeps_the_participant_and_ends_the_session(client, owner, add_guest, sign_in):
    gus = add_guest("Gus")
    session = _session(client, _link(client, owner)["token"], participantId=gus)
    client.post(f"/groups/{owner.gid}/expenses", headers=_bearer(session), json={
        "description": "Taxi", "amount": 1200, "date": "2026-05-01",
        "payments": [{"participantId": gus, "amount": 1200}],
        "splits": [{"participantId": gus}], "splitMode": "EQUAL"})
    headers, user_id = sign_in("gus@example.com", display_name="Gus Real")
    reply = client.post(f"/groups/{owner.gid}/links/claim",
                        json={"sessionToken": session["accessToken"]}, headers=headers)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["participantId"] == gus and reply.get_json()["userId"] == user_id
    group = client.get(f"/groups/{owner.gid}", headers=headers).get_json()
    assert group["myParticipantId"] == gus
    assert client.get(f"/groups/{owner.gid}", headers=_bearer(session)).status_code == 401
    again = client.post(f"/groups/{owner.gid}/links/claim",
                        json={"sessionToken": session["accessToken"]}, headers=headers)
    assert again.status_code == 409


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4"])
def test_a_pin_is_four_to_eight_digits(client, owner, pin):
    reply = client.post(f"/groups/{owner.gid}/links", json={"role": "MEMBER", "pin": pin},
                        headers=owner.headers)
    assert reply.status_code == 400


def test_the_activity_says_by_link(client, owner, add_guest):
    gus = add_guest("Bo")
    session = _session(client, _link(client, owner)["token"], participantId=gus)
    reply = client.post(f"/groups/{owner.gid}/expenses", headers=_bearer(session), json={
        "description": "Taxi", "amount": 1200, "date": "2026-05-01",
        "payments": [{"participantId": gus, "amount": 1200}],
        "splits": [{"participantId": gus}], "splitMode": "EQUAL"})
    assert reply.status_code == 201
    items = client.get(f"/groups/{owner.gid}/activity", headers=owner.headers).get_json()["items"]
    assert items[0]["summary"].startswith("Bo (by link) added Taxi")
    assert items[0]["actor"]["participantId"] == gus
    # the guest's own session sees the feed too
    assert client.get(f"/groups/{owner.gid}/changes", headers=_bearer(session)).status_code == 200


def test_a_removed_guest_ends_its_sessions(client, owner, add_guest):
    gus = add_guest("Gus")
    session = _session(client, _link(client, owner)["token"], participantId=gus)
    assert client.delete(f"/groups/{owner.gid}/participants/{gus}",
                         headers=owner.headers).status_code == 204
    assert client.get(f"/groups/{owner.gid}", headers=_bearer(session)).status_code == 401


def test_deleting_the_group_sweeps_its_links(client, owner, add_guest):
    gus = add_guest("Gus")
    link = _link(client, owner)
    session = _session(client, link["token"], participantId=gus)
    assert client.delete(f"/groups/{owner.gid}", headers=owner.headers).status_code in (202, 204)
    assert list(ShareLink.of_group(owner.gid)) == []
    assert client.get(f"/groups/{owner.gid}", headers=_bearer(session)).status_code == 404
    assert client.post("/links/open", json={"token": link["token"]}).status_code == 404


def test_the_document_lists_the_session_scheme_where_sessions_are_admitted(client):
    document = client.get("/openapi.json").get_json()
    assert document["components"]["securitySchemes"]["linkSession"]["scheme"] == "bearer"
    paths = document["paths"]
    assert {"linkSession": []} in paths["/groups/{groupId}/expenses"]["post"]["security"]
    assert {"linkSession": []} in paths["/groups/{groupId}"]["get"]["security"]
    assert {"linkSession": []} in paths["/realtime/token"]["post"]["security"]
    for path, method in (("/groups/{groupId}/links", "get"), ("/users/me", "get"),
                         ("/groups/{groupId}/invite", "get")):
        assert {"linkSession": []} not in paths[path][method]["security"], path
    assert paths["/links/open"]["post"]["security"] == []


def test_a_replayed_create_has_no_token(client, owner):
    headers = {**owner.headers, "Idempotency-Key": "link-once"}
    first = client.post(f"/groups/{owner.gid}/links", json={"role": "VIEWER"}, headers=headers)
    again = client.post(f"/groups/{owner.gid}/links", json={"role": "VIEWER"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert "token" in first.get_json() and "token" not in again.get_json()
    assert again.get_json()["linkId"] == first.get_json()["linkId"]


def test_two_guests_of_one_link_are_two_callers(client, owner):
    token = _link(client, owner)["token"]
    ana, bo = (_session(client, token, displayName=name) for name in ("Ana", "Bo"))
    expense = client.post(f"/groups/{owner.gid}/expenses", headers=_bearer(ana), json={
        "description": "Taxi", "amount": 100, "date": "2026-05-01",
        "payments": [{"participantId": ana["participantId"], "amount": 100}],
        "splits": [{"participantId": ana["participantId"]}], "splitMode": "EQUAL"}).get_json()
    thread = f"/groups/{owner.gid}/expenses/{expense['expenseId']}/comments"
    comment = client.post(thread, json={"body": "mine"}, headers=_bearer(ana)).get_json()
    edited = client.patch(f"{thread}/{comment['commentId']}", json={"body": "yours"},
                          headers=_bearer(bo))
    assert edited.status_code in (403, 404)
    assert client.patch(f"{thread}/{comment['commentId']}", json={"body": "still mine"},
                        headers=_bearer(ana)).status_code == 200


def test_a_session_creates_with_an_idempotency_key_once(client, owner, add_guest):
    """A guest's phone queues a write offline with its Idempotency-Key and may send it twice
    (the web app): the session has no account, and the key still claims and replays."""
    gus = add_guest("Gus")
    session = _session(client, _link(client, owner)["token"], participantId=gus)
    body = {"description": "Taxi", "amount": 1200, "date": "2026-05-01", "splitMode": "EQUAL",
            "payments": [{"participantId": gus, "amount": 1200}],
            "splits": [{"participantId": gus}]}
    headers = {**_bearer(session), "Idempotency-Key": "offline-1"}
    first = client.post(f"/groups/{owner.gid}/expenses", headers=headers, json=body)
    again = client.post(f"/groups/{owner.gid}/expenses", headers=headers, json=body)
    assert first.status_code == again.status_code == 201, first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["expenseId"] == first.get_json()["expenseId"]
    seen = client.get(f"/groups/{owner.gid}/expenses", headers=owner.headers).get_json()
    assert [e["description"] for e in seen["items"]] == ["Taxi"]
