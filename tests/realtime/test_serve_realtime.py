"""`python -m app serve`: live updates end to end, driven by the `websockets` client.

The change goes through the API, the embedded DynamoDB stream, the local stream poller, the
publisher handler AWS runs, and local mode's AppSync Events server to the socket."""
from __future__ import annotations

import base64
import json

import pytest
from websockets.exceptions import ConnectionClosed

from tests.ledger.helpers import equal_body
from tests.local.serving import Server, call, sign_in
from tests.realtime.wsclient import Client


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("realtime") / "data")
    yield server
    server.stop()


def _token(server, access_token) -> dict:
    status, issued = call("POST", server.url + "/realtime/token", token=access_token)
    assert status == 200, issued
    return issued


def _two_member_group(server, owner, member, member_email):
    status, group = call("POST", server.url + "/groups", {"name": "Trip", "currency": "EUR"},
                         owner)
    assert status == 201
    gid = group["groupId"]
    _, invite = call("GET", f"{server.url}/groups/{gid}/invite", token=owner)
    status, request = call("POST", f"{server.url}/groups/{gid}/join-requests",
                           {"code": invite["code"], "mode": "NEW"}, member)
    assert status == 201, request
    status, approved = call("POST", f"{server.url}/groups/{gid}/join-requests/"
                                    f"{request['requestId']}/approve", {"role": "MEMBER"}, owner)
    assert status == 200, approved
    return group, approved["participant"]["participantId"]


def test_a_second_users_expense_pokes_the_first_and_changes_returns_it(server):
    owner, owner_id = sign_in(server, "rt-owner@example.com")
    member, _ = sign_in(server, "rt-member@example.com")
    group, member_pid = _two_member_group(server, owner, member, "rt-member@example.com")
    gid = group["groupId"]
    issued = _token(server, owner)
    assert f"/groups/{gid}" in issued["channels"]
    assert issued["channels"][-1] == f"/users/{owner_id}"
    assert issued["url"].startswith("ws://") and issued["url"].endswith("/event/realtime")
    client = Client(issued)
    try:
        ack = client.init()
        assert ack["type"] == "connection_ack" and ack["connectionTimeoutMs"] > 0
        assert client.subscribe(f"/groups/{gid}")["type"] == "subscribe_success"
        _, feed = call("GET", f"{server.url}/groups/{gid}/changes?since=1000000", token=owner)
        since = feed["revision"]
        status, expense = call("POST", f"{server.url}/groups/{gid}/expenses", equal_body(
            member_pid, 1200, [member_pid, group["myParticipantId"]], description="Taxi"), member)
        assert status == 201, expense
        # Pokes are at least once and may come late: the group's own earlier changes (its
        # creation, the join) can still be on their way after the subscribe. A client that has
        # read the feed up to `since` skips them, as the web app does.
        poke = client.poke()
        while poke["revision"] is not None and poke["revision"] <= since:
            poke = client.poke()
        assert poke == {"groupId": gid, "revision": since + 1, "kind": "EXPENSE",
                        "id": expense["expenseId"]}
        _, feed = call("GET", f"{server.url}/groups/{gid}/changes?since={since}", token=owner)
        assert [(c["revision"], c["id"]) for c in feed["changes"]] == [
            (since + 1, expense["expenseId"])]
    finally:
        client.close()


def test_other_groups_wildcards_and_bad_paths_are_refused(server):
    owner, _ = sign_in(server, "rt-a@example.com")
    stranger, _ = sign_in(server, "rt-b@example.com")
    _, theirs = call("POST", server.url + "/groups", {"name": "Theirs", "currency": "EUR"},
                     stranger)
    client = Client(_token(server, owner))
    try:
        client.init()
        for channel in (f"/groups/{theirs['groupId']}", "/groups/*", "/*", "/groups",
                        f"/groups/{theirs['groupId']}/x"):
            reply = client.subscribe(channel)
            assert reply["type"] == "subscribe_error", channel
            assert reply["errors"][0]["errorType"] == "UnauthorizedException"
        # still connected and still able to subscribe where the token allows
        assert client.subscribe(client.issued["channels"][-1])["type"] == "subscribe_success"
    finally:
        client.close()


def _forged(token: str) -> str:
    header, claims, signature = token.split(".")
    data = json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))
    data["channels"].append("/groups/someone-elses")
    body = base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")
    return f"{header}.{body}.{signature}"


def test_a_forged_or_garbage_token_cannot_connect_or_subscribe(server):
    owner, _ = sign_in(server, "rt-c@example.com")
    issued = _token(server, owner)
    for bad in (_forged(issued["token"]), "not-a-token"):
        client = Client(issued, token=bad)
        message = client.init()
        assert message["type"] == "connection_error"
        assert message["errors"][0]["errorType"] == "UnauthorizedException"
        with pytest.raises(ConnectionClosed):
            client.receive()
    client = Client(issued)
    try:
        client.init()
        reply = client.subscribe("/groups/someone-elses", token=_forged(issued["token"]))
        assert reply["type"] == "subscribe_error"
    finally:
        client.close()


def test_removal_sends_revoked_to_the_removed_user(server):
    owner, _ = sign_in(server, "rt-d@example.com")
    member, member_id = sign_in(server, "rt-e@example.com")
    group, member_pid = _two_member_group(server, owner, member, "rt-e@example.com")
    issued = _token(server, member)
    client = Client(issued)
    try:
        client.init()
        assert client.subscribe(f"/users/{member_id}")["type"] == "subscribe_success"
        status, _ = call("DELETE", f"{server.url}/groups/{group['groupId']}/participants/"
                                   f"{member_pid}", token=owner)
        assert status == 204
        # The join's HOME poke and its notification's may still be on their way (published
        # after the subscribe).
        pokes = [client.poke()]
        while pokes[-1]["kind"] in ("HOME", "NOTIFICATION"):
            pokes.append(client.poke())
        assert pokes[-1] == {"groupId": group["groupId"], "revision": None,
                             "kind": "REVOKED", "id": group["groupId"]}
        assert all(p == {**pokes[-1], "kind": "HOME"} or p["kind"] == "NOTIFICATION"
                   for p in pokes[:-1])
    finally:
        client.close()
    # and a new token no longer lists the group
    assert f"/groups/{group['groupId']}" not in _token(server, member)["channels"]


def test_unsubscribe_stops_pokes(server):
    owner, _ = sign_in(server, "rt-f@example.com")
    _, group = call("POST", server.url + "/groups", {"name": "Solo", "currency": "EUR"}, owner)
    client = Client(_token(server, owner))
    try:
        client.init()
        sub = client.subscribe(f"/groups/{group['groupId']}")
        client.ws.send(json.dumps({"type": "unsubscribe", "id": sub["id"]}))
        reply = client.receive()
        while reply["type"] == "data":  # the group's own creation, poked late on a busy machine
            reply = client.receive()
        assert reply == {"type": "unsubscribe_success", "id": sub["id"]}
        call("PATCH", f"{server.url}/groups/{group['groupId']}", {"name": "Solo 2"}, owner)
        with pytest.raises(TimeoutError):
            client.receive(timeout=2.0)
    finally:
        client.close()


def test_a_new_notification_and_marking_it_read_poke_the_users_channel(server):
    owner, owner_id = sign_in(server, "rt-g@example.com")
    member, _ = sign_in(server, "rt-h@example.com")
    group, member_pid = _two_member_group(server, owner, member, "rt-h@example.com")
    client = Client(_token(server, owner))
    try:
        client.init()
        assert client.subscribe(f"/users/{owner_id}")["type"] == "subscribe_success"
        status, expense = call("POST", f"{server.url}/groups/{group['groupId']}/expenses",
                               equal_body(member_pid, 900, [member_pid, group["myParticipantId"]],
                                          description="Lunch"), member)
        assert status == 201, expense
        # The outbox event -> the notification worker's history row -> its stream -> the poke.
        # The join's HOME and join-request pokes may come first (published after the subscribe).
        seen = []
        while True:
            poke = client.poke(timeout=15)
            seen.append(poke)
            assert poke["kind"] in ("HOME", "NOTIFICATION"), seen
            if poke["kind"] != "NOTIFICATION":
                continue
            _, history = call("GET", f"{server.url}/notifications", token=owner)
            rows = {n["notificationId"]: n for n in history["items"]}
            assert poke["id"] in rows, (poke, rows)  # a poke names a row the client can read
            if rows[poke["id"]]["resourceId"] == expense["expenseId"]:
                break
        assert poke == {"groupId": group["groupId"], "revision": None, "kind": "NOTIFICATION",
                        "id": poke["id"]}
        status, _ = call("POST", f"{server.url}/notifications/read", {"all": True}, owner)
        assert status in (200, 204)
        # The join's pokes travel another table's stream than the notifications': one of them
        # can still land after the expense's (a full run saw the HOME poke arrive here).
        late = []
        while (poke := client.poke(timeout=15))["kind"] != "NOTIFICATION_SETTINGS":
            late.append(poke)
            assert poke["kind"] in ("HOME", "NOTIFICATION"), late
        assert poke == {"groupId": None, "revision": None, "kind": "NOTIFICATION_SETTINGS",
                        "id": owner_id}
    finally:
        client.close()


def _until_poke(client, wanted, timeout: float = 15.0) -> list:
    """Every message up to and including the data message whose poke ``wanted`` accepts."""
    seen = []
    while True:
        message = client.receive(timeout)
        seen.append(message)
        if message["type"] == "data" and wanted(json.loads(message["event"])):
            return seen


def test_a_removed_members_open_subscription_stops_and_their_old_token_is_refused(server):
    owner, _ = sign_in(server, "rt-i@example.com")
    member, member_id = sign_in(server, "rt-j@example.com")
    group, member_pid = _two_member_group(server, owner, member, "rt-j@example.com")
    gid, channel = group["groupId"], f"/groups/{group['groupId']}"
    old = _token(server, member)  # minted while a member
    theirs, ours = Client(old), Client(_token(server, owner))
    try:
        theirs.init()
        ours.init()
        sub = theirs.subscribe(channel)
        assert sub["type"] == "subscribe_success"
        assert theirs.subscribe(f"/users/{member_id}")["type"] == "subscribe_success"
        assert ours.subscribe(channel)["type"] == "subscribe_success"
        status, _ = call("DELETE", f"{server.url}/groups/{gid}/participants/{member_pid}",
                         token=owner)
        assert status == 204
        seen = _until_poke(theirs, lambda p: p["kind"] == "REVOKED" and p["groupId"] == gid)
        # the group's subscription was ended (and said so) before the REVOKED poke came
        assert {"type": "subscribe_error", "id": sub["id"], "errors": [{
            "errorType": "UnauthorizedException",
            "message": "You are no longer a member of this group."}]} in seen[:-1]
        status, expense = call("POST", f"{server.url}/groups/{gid}/expenses", equal_body(
            group["myParticipantId"], 800, [group["myParticipantId"]], description="Later"),
            owner)
        assert status == 201, expense
        _until_poke(ours, lambda p: p["id"] == expense["expenseId"])
        # A later poke of the member's own channel: the group's, had it been sent to them,
        # would have come first on the socket.
        status, _ = call("POST", f"{server.url}/notifications/read", {"all": True}, member)
        assert status in (200, 204)
        after = _until_poke(theirs, lambda p: p["kind"] == "NOTIFICATION_SETTINGS")
        assert [m for m in after if m.get("id") == sub["id"]] == []
        # the token still lists the group; the server no longer takes it
        refused = theirs.subscribe(channel, token=old["token"])
        assert refused["type"] == "subscribe_error"
        assert refused["errors"][0]["errorType"] == "UnauthorizedException"
    finally:
        theirs.close()
        ours.close()
    again = Client(old)  # a new connection with the old token: the group is refused there too
    try:
        assert again.init()["type"] == "connection_ack"
        assert again.subscribe(channel)["type"] == "subscribe_error"
    finally:
        again.close()


def test_a_token_minted_before_account_deletion_is_refused(server):
    user, user_id = sign_in(server, "rt-k@example.com")
    _, group = call("POST", server.url + "/groups", {"name": "Solo", "currency": "EUR"}, user)
    issued = _token(server, user)
    open_before = Client(issued)
    try:
        open_before.init()
        status, _ = call("DELETE", server.url + "/users/me", token=user)
        assert status == 204
        for channel in (f"/groups/{group['groupId']}", f"/users/{user_id}"):
            reply = open_before.subscribe(channel)
            while reply["type"] == "data":  # the group's creation, poked late
                reply = open_before.receive()
            assert reply["type"] == "subscribe_error", channel
    finally:
        open_before.close()
    client = Client(issued)
    message = client.init()
    assert message["type"] == "connection_error"
    assert message["errors"][0] == {"errorType": "UnauthorizedException",
                                    "message": "The account is deleted or being deleted."}
    with pytest.raises(ConnectionClosed):
        client.receive()
