"""Share-link sessions everywhere else (docs/share-links.md), through the Flask test client on
moto: the LINK activity item each session opens, realtime tokens, receipts and the names
notifications give a guest's writes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.handlers import realtime_authorizer
from app.realtime import admission
from models.groups import Change
from tests.groups.test_share_links import _bearer, _link, _session
from tests.support.lambda_context import lambda_context

EVENTS = Path(__file__).resolve().parents[2] / "events"


def test_each_session_is_a_link_activity_item_that_changes_never_serves(client, owner, add_guest):
    gus = add_guest("Bo")
    link = _link(client, owner)
    since = client.get(f"/groups/{owner.gid}/changes?since=0",
                       headers=owner.headers).get_json()["revision"]
    session = _session(client, link["token"], participantId=gus)
    added = _session(client, link["token"], displayName="Cy")
    items = client.get(f"/groups/{owner.gid}/activity", headers=owner.headers).get_json()["items"]
    assert [(i["kind"], i["summary"]) for i in items[:3]] == [
        ("LINK", "Cy (by link) opened the group"),
        ("PARTICIPANT", "Cy (by link) joined the group"),
        ("LINK", "Bo (by link) opened the group")]
    assert items[2]["actor"]["participantId"] == gus
    assert items[0]["actor"]["participantId"] == added["participantId"]
    stored = [row for row in Change.after(owner.gid, since) if row.Kind == "LINK"]
    assert len(stored) == 2 and all(set(row.Subject) == {"participantId"} for row in stored)
    for headers in (owner.headers, _bearer(session)):
        feed = client.get(f"/groups/{owner.gid}/changes?since={since}", headers=headers)
        assert feed.status_code == 200, feed.get_json()
        body = feed.get_json()
        # the feed passes the LINK revisions (nextSince) and serves only the new guest
        assert [c["kind"] for c in body["changes"]] == ["PARTICIPANT"]
        assert body["nextSince"] == body["revision"] == since + 3
        assert link["linkId"] not in feed.get_data(as_text=True)


def _authorizer_event(token, operation="EVENT_SUBSCRIBE", channel=None) -> dict:
    event = json.loads((EVENTS / "realtime_authorizer_subscribe.json").read_text())
    event["authorizationToken"] = token
    event["requestContext"]["operation"] = operation
    if channel is not None:
        event["requestContext"]["channel"] = channel
    return event


def test_a_sessions_realtime_token_lists_its_group_and_the_authorizer_admits_it_by_link(
        client, owner, add_guest, sign_in):
    gus = add_guest("Gus")
    link = _link(client, owner)
    session = _session(client, link["token"], participantId=gus)
    reply = client.post("/realtime/token", headers=_bearer(session))
    assert reply.status_code == 200, reply.get_json()
    issued = reply.get_json()
    assert issued["channels"] == [f"/groups/{owner.gid}"]
    assert issued["expiresAt"][:19] <= session["expiresAt"][:19]
    handle, token = realtime_authorizer.lambda_handler, issued["token"]
    connected = handle(_authorizer_event(token, "EVENT_CONNECT"), lambda_context())
    assert connected["isAuthorized"] is True
    allowed = handle(_authorizer_event(token, channel=f"/groups/{owner.gid}"), lambda_context())
    assert allowed["isAuthorized"] is True
    other_headers, _ = sign_in("other@example.com")
    other = client.post("/groups", json={"name": "Else", "currency": "EUR"},
                        headers=other_headers).get_json()["groupId"]
    for channel in (f"/groups/{other}", f"/users/{owner.user_id}", "/groups/*"):
        refused = handle(_authorizer_event(token, channel=channel), lambda_context())
        assert refused["isAuthorized"] is False, channel
    # revoking the link ends the token's admission at once, as it ends the session's requests
    assert client.delete(f"/groups/{owner.gid}/links/{link['linkId']}",
                         headers=owner.headers).status_code == 204
    for operation, channel in (("EVENT_CONNECT", None), ("EVENT_SUBSCRIBE", f"/groups/{owner.gid}")):
        event = _authorizer_event(token, operation, channel)
        assert handle(event, lambda_context())["isAuthorized"] is False, operation
    assert client.post("/realtime/token", headers=_bearer(session)).status_code == 401


def test_a_claimed_guest_ends_its_sessions_realtime_admission(client, owner, add_guest,
                                                               sign_in):
    gus = add_guest("Gus")
    session = _session(client, _link(client, owner)["token"], participantId=gus)
    token = client.post("/realtime/token", headers=_bearer(session)).get_json()["token"]
    channel = f"/groups/{owner.gid}"
    assert admission.subscribe(token, channel).channels == [channel]
    claimer, _ = sign_in("claimer@example.com")
    assert client.post(f"/groups/{owner.gid}/links/claim", headers=claimer,
                       json={"sessionToken": session["accessToken"]}).status_code == 200
    with pytest.raises(admission.REFUSED):
        admission.subscribe(token, channel)
    with pytest.raises(admission.REFUSED):
        admission.connect(token)
