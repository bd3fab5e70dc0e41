"""GET /users/me/groups: the home screen from one index query and one batch read."""
from __future__ import annotations

from pynamodb.expressions.operand import Path

from bench.support import count_dynamodb_calls
from models.groups import Balance, Group


def set_net(gid: str, participant_id: str, net: int) -> None:
    Balance(*Balance.key(gid)).update(
        actions=[Path(Balance.net_attribute(participant_id)).set(net)])


def new_group(client, headers, name: str) -> dict:
    return client.post("/groups", json={"name": name, "currency": "EUR"},
                       headers=headers).get_json()


def test_home_lists_each_group_with_role_participant_and_net(client, owner, join):
    member = join("mia@example.com", role="VIEWER")
    set_net(owner.gid, member.pid, -1250)
    set_net(owner.gid, owner.pid, 1250)
    reply = client.get("/users/me/groups", headers=member.headers)
    assert reply.status_code == 200
    assert reply.get_json() == {"items": [{
        "groupId": owner.gid, "name": "Trip", "currency": "EUR", "myRole": "VIEWER",
        "myParticipantId": member.pid, "myNet": -1250, "myOtherNets": [],
        "revision": 3, "archived": False}], "nextCursor": None}  # the group, its owner, the member


def test_home_net_is_zero_for_a_participant_without_a_net_yet(client, owner):
    assert client.get("/users/me/groups", headers=owner.headers).get_json()["items"][0][
        "myNet"] == 0


def test_home_skips_groups_being_deleted(client, owner):
    kept = new_group(client, owner.headers, "Kept")
    Group(*Group.key(owner.gid)).update(actions=[Group.Status.set("DELETING")])
    items = client.get("/users/me/groups", headers=owner.headers).get_json()["items"]
    assert [g["groupId"] for g in items] == [kept["groupId"]]


def test_home_is_empty_for_a_user_without_groups(client, sign_in):
    headers, _ = sign_in("new@example.com")
    assert client.get("/users/me/groups", headers=headers).get_json() == {
        "items": [], "nextCursor": None}


def test_home_pages_with_limit_and_cursor(client, owner):
    ids = {owner.gid} | {new_group(client, owner.headers, f"G{i}")["groupId"] for i in range(2)}
    first = client.get("/users/me/groups?limit=2", headers=owner.headers).get_json()
    rest = client.get(f"/users/me/groups?limit=2&cursor={first['nextCursor']}",
                      headers=owner.headers).get_json()
    assert len(first["items"]) == 2
    assert {g["groupId"] for g in first["items"] + rest["items"]} == ids


def test_home_cursor_of_another_user_is_refused(client, owner, sign_in):
    new_group(client, owner.headers, "Second")
    cursor = client.get("/users/me/groups?limit=1", headers=owner.headers).get_json()["nextCursor"]
    headers, _ = sign_in("other@example.com")
    assert client.get(f"/users/me/groups?cursor={cursor}", headers=headers).status_code == 400


def test_home_calls_stay_flat_from_one_group_to_fifty(client, sign_in):
    headers, _ = sign_in("busy@example.com")
    new_group(client, headers, "G0")
    with count_dynamodb_calls() as one:
        assert len(client.get("/users/me/groups", headers=headers).get_json()["items"]) == 1
    for i in range(1, 50):
        new_group(client, headers, f"G{i}")
    with count_dynamodb_calls() as fifty:
        reply = client.get("/users/me/groups?limit=100", headers=headers).get_json()
    assert len(reply["items"]) == 50
    # The caller's profile (read on every request: a deleted account is refused) rides on
    # the page's BatchGetItem of heads and balance rows; a full page's 100 keys push it into
    # a second batch of one key. No GetItem either way.
    assert dict(one.calls) == {"Query": 1, "BatchGetItem": 1}
    assert dict(fifty.calls) == {"Query": 1, "BatchGetItem": 2}
