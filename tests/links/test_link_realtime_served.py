"""A share-link session hears its group live, end to end through the shared
`python -m app serve` with a real WebSocket client (as tests/realtime does): its token lists
only its group, the local AppSync Events server admits it by its link, and a revoked link
connects to nothing."""
from __future__ import annotations

from tests.links.test_share_links_served import _expense, _group, _link
from tests.realtime.wsclient import Client


def test_a_session_subscribes_to_its_group_hears_a_members_write_and_revocation_ends_it(
        served_app):
    owner, gid, owner_pid = _group(served_app, "links-rt-owner@example.com")
    link = _link(served_app, owner, gid)
    status, session = served_app.call("POST", "/links/session",
                                      {"token": link["token"], "displayName": "Bo"})
    assert status == 201, session
    status, issued = served_app.call("POST", "/realtime/token", token=session["accessToken"])
    assert status == 200, issued
    assert issued["channels"] == [f"/groups/{gid}"]
    client = Client(issued)
    try:
        assert client.init()["type"] == "connection_ack"
        assert client.subscribe(f"/groups/{gid}")["type"] == "subscribe_success"
        status, expense = _expense(served_app, owner, gid, owner_pid)
        assert status == 201, expense
        poke = client.poke()
        while poke["kind"] != "EXPENSE":  # the session's own LINK item may come first
            poke = client.poke()
        assert poke["groupId"] == gid and poke["id"] == expense["expenseId"]
    finally:
        client.close()
    status, _ = served_app.call("DELETE", f"/groups/{gid}/links/{link['linkId']}", token=owner)
    assert status == 204
    refused = Client(issued)
    try:
        message = refused.init()
        assert message["type"] == "connection_error", message
        assert message["errors"][0]["errorType"] == "UnauthorizedException"
    finally:
        refused.close()
