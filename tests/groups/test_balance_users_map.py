"""BALANCE#v1's Users set (USER participantId -> userId, what GET /users/me/people reads
instead of rosters) follows every roster change that binds or unbinds an account: create,
join (NEW and TAKEOVER), invitation accept, leave, removal, account deletion's conversion."""
from __future__ import annotations

from tests.ledger.helpers import assert_users_map_matches_roster, users_map_of_roster


def _guest(client, owner, name="Gus"):
    reply = client.post(f"/groups/{owner.gid}/participants", json={"displayName": name},
                        headers=owner.headers)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()["participantId"]


def test_the_map_follows_joins_leaves_and_removals(client, sign_in, owner, submit, join):
    assert users_map_of_roster(owner.gid) == {owner.pid: owner.user_id}
    assert_users_map_matches_roster(owner.gid)
    ann = join("ann@example.com")
    assert_users_map_matches_roster(owner.gid)
    guest = _guest(client, owner)
    bo_h, bo = sign_in("bo@example.com")
    request = submit(bo_h, mode="TAKEOVER", targetParticipantId=guest).get_json()
    reply = client.post(f"/groups/{owner.gid}/join-requests/{request['requestId']}/approve",
                        json={"role": "MEMBER"}, headers=owner.headers)
    assert reply.status_code == 200, reply.get_json()
    assert users_map_of_roster(owner.gid)[guest] == bo
    assert_users_map_matches_roster(owner.gid)
    assert client.post(f"/groups/{owner.gid}/leave", headers=ann.headers).status_code == 204
    assert ann.pid not in users_map_of_roster(owner.gid)
    assert_users_map_matches_roster(owner.gid)
    reply = client.delete(f"/groups/{owner.gid}/participants/{guest}", headers=owner.headers)
    assert reply.status_code == 204, reply.get_json()
    assert_users_map_matches_roster(owner.gid)
    assert users_map_of_roster(owner.gid) == {owner.pid: owner.user_id}


def test_the_map_follows_an_accepted_invitation(client, sign_in, owner):
    fay_h, fay = sign_in("fay@example.com", display_name="Fay")
    assert client.put("/people/me/handle", headers=fay_h,
                      json={"handle": "fay_f", "discoverable": True}).status_code == 200
    reply = client.post(f"/groups/{owner.gid}/invitations", headers=owner.headers,
                        json={"userId": fay, "role": "MEMBER"})
    assert reply.status_code == 201, reply.get_json()
    reply = client.post(f"/people/me/invitations/{owner.gid}/accept", headers=fay_h)
    assert reply.status_code == 200, reply.get_json()
    assert fay in users_map_of_roster(owner.gid).values()
    assert_users_map_matches_roster(owner.gid)


def test_account_deletion_unfiles_the_converted_guest(client, owner, join):
    dora = join("dora@example.com")
    assert client.delete("/users/me", headers=dora.headers).status_code == 204
    assert users_map_of_roster(owner.gid) == {owner.pid: owner.user_id}
    assert_users_map_matches_roster(owner.gid)


def test_an_element_is_two_uuids_in_32_bytes_and_other_ids_are_spelled_out():
    from models.groups import Balance
    pid, uid = "6f1c2a7e-2b7d-4c39-9d0e-3f0a1b2c3d4e", "0b6f5c1e-8a51-4a2c-9d6e-6c3f1f0e7a11"
    assert len(Balance.user_pair(pid, uid)) == 32
    for pair in ((pid, uid), ("imported-1", uid), ("a" * 15, "b" * 16), ("x", "y")):
        assert Balance.pair_of(Balance.user_pair(*pair)) == pair
    assert len(Balance.user_pair("a" * 15, "b" * 16)) == 33  # never taken for two UUIDs
