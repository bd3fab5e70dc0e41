"""At most MAX_GROUP_PARTICIPANTS participants per group (409 GROUP_FULL), counted on the
group head in the same transaction as every add and removal, healed for groups that predate
the counter, and every group read still a fixed number of DynamoDB calls at the cap."""
from __future__ import annotations

import pytest

from app.limits import MAX_GROUP_PARTICIPANTS
from app.core.access import authorize
from app.groups import participants
from bench.support import count_dynamodb_calls
from models.groups import Group


@pytest.fixture
def owner(client, sign_in):
    headers, user_id = sign_in("capped@example.com")
    group = client.post("/groups", json={"name": "Big", "currency": "EUR"},
                        headers=headers).get_json()
    return headers, user_id, group["groupId"]


def _fill(user_id: str, group_id: str, total: int) -> None:
    """Add guests (through the service, as the API does) until the group holds ``total``."""
    access = authorize(user_id, group_id, "MEMBER")
    have = len(participants.list_participants(access))
    for index in range(total - have):
        participants.add_guest(access, display_name=f"Guest {index}")


def _head(group_id: str) -> Group:
    return Group.get(*Group.key(group_id), consistent_read=True)


def _forget_count(group_id: str) -> None:
    """Make the head look like one written before the counter existed."""
    Group(*Group.key(group_id)).update(actions=[Group.ParticipantCount.remove()])


def _add_guest(client, headers, group_id, name="One more"):
    return client.post(f"/groups/{group_id}/participants", json={"displayName": name},
                       headers=headers)


def _remove_a_guest(client, headers, group_id) -> None:
    roster = client.get(f"/groups/{group_id}/participants", headers=headers).get_json()["items"]
    guest = next(p for p in roster if p["type"] == "GUEST")
    reply = client.delete(f"/groups/{group_id}/participants/{guest['participantId']}",
                          headers=headers)
    assert reply.status_code == 204, reply.get_json()


def test_a_guest_past_the_cap_is_409_group_full(client, owner):
    headers, user_id, group_id = owner
    _fill(user_id, group_id, MAX_GROUP_PARTICIPANTS)
    assert int(_head(group_id).ParticipantCount) == MAX_GROUP_PARTICIPANTS
    reply = _add_guest(client, headers, group_id)
    assert reply.status_code == 409, reply.get_json()
    assert reply.get_json()["error"]["code"] == "GROUP_FULL"
    roster = client.get(f"/groups/{group_id}/participants", headers=headers).get_json()["items"]
    assert len(roster) == MAX_GROUP_PARTICIPANTS

    # Removing someone makes room again, and the counter follows.
    _remove_a_guest(client, headers, group_id)
    assert int(_head(group_id).ParticipantCount) == MAX_GROUP_PARTICIPANTS - 1
    assert _add_guest(client, headers, group_id).status_code == 201


def test_approving_a_new_member_into_a_full_group_is_409_and_leaves_it_pending(
        client, sign_in, owner):
    headers, user_id, group_id = owner
    _fill(user_id, group_id, MAX_GROUP_PARTICIPANTS)
    code = client.get(f"/groups/{group_id}/invite", headers=headers).get_json()["code"]
    applicant, _ = sign_in("applicant@example.com")
    request = client.post(f"/groups/{group_id}/join-requests",
                          json={"code": code, "mode": "NEW"}, headers=applicant).get_json()
    approve = f"/groups/{group_id}/join-requests/{request['requestId']}/approve"
    reply = client.post(approve, json={"role": "MEMBER"}, headers=headers)
    assert reply.status_code == 409, reply.get_json()
    assert reply.get_json()["error"]["code"] == "GROUP_FULL"
    pending = client.get(f"/groups/{group_id}/join-requests", headers=headers).get_json()
    assert [r["requestId"] for r in pending["items"]] == [request["requestId"]]

    _remove_a_guest(client, headers, group_id)
    assert client.post(approve, json={"role": "MEMBER"}, headers=headers).status_code == 200
    assert int(_head(group_id).ParticipantCount) == MAX_GROUP_PARTICIPANTS


def test_a_group_without_the_counter_is_healed_from_its_roster(client, owner):
    headers, user_id, group_id = owner
    _fill(user_id, group_id, 3)
    _forget_count(group_id)
    assert _add_guest(client, headers, group_id).status_code == 201
    assert int(_head(group_id).ParticipantCount) == 4

    _forget_count(group_id)
    _remove_a_guest(client, headers, group_id)
    assert int(_head(group_id).ParticipantCount) == 3


def test_a_full_group_without_the_counter_is_still_full(client, owner):
    headers, user_id, group_id = owner
    _fill(user_id, group_id, MAX_GROUP_PARTICIPANTS)
    _forget_count(group_id)
    reply = _add_guest(client, headers, group_id)
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "GROUP_FULL"


READS = ("", "/participants", "/balances")


def _read_calls(client, headers, group_id) -> dict:
    calls = {}
    for suffix in READS:
        with count_dynamodb_calls() as counter:
            reply = client.get(f"/groups/{group_id}{suffix}", headers=headers)
        assert reply.status_code == 200, reply.get_json()
        calls[suffix] = counter.total
    return calls


def test_group_reads_at_the_cap_cost_the_same_calls_as_in_an_empty_group(client, owner):
    headers, user_id, group_id = owner
    client.post(f"/groups/{group_id}/expenses", headers=headers, json={
        "description": "x", "amount": 100, "splitMode": "EQUAL",
        "payments": [{"participantId": authorize(user_id, group_id).participant_id,
                      "amount": 100}],
        "splits": [{"participantId": authorize(user_id, group_id).participant_id}]})
    small = _read_calls(client, headers, group_id)
    _fill(user_id, group_id, MAX_GROUP_PARTICIPANTS)
    full = _read_calls(client, headers, group_id)
    assert full == small, (small, full)
    assert all(calls <= 3 for calls in full.values()), full
    balances = client.get(f"/groups/{group_id}/balances", headers=headers).get_json()
    assert len(balances["balances"]) == MAX_GROUP_PARTICIPANTS
