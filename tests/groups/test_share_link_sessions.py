"""Share-link sessions everywhere else (docs/share-links.md), through the Flask test client on
moto: the LINK activity item each session opens, realtime tokens, receipts and the names
notifications give a guest's writes."""
from __future__ import annotations

from models.groups import Change

from tests.groups.test_share_links import _bearer, _link, _session


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
