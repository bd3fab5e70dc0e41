"""Invite links: owner read/update/rotate and the code holder's preview."""
from __future__ import annotations

import pytest

from bench.support import count_dynamodb_calls
from models.groups import Group, Invite, Participant


def test_owner_reads_invite(client, owner):
    reply = client.get(f"/groups/{owner.gid}/invite", headers=owner.headers)
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["enabled"] is True and body["defaultRole"] == "MEMBER"
    assert len(body["code"]) >= 20  # unguessable


@pytest.mark.parametrize("method,path", [("get", "/invite"), ("patch", "/invite"),
                                         ("post", "/invite/rotate")])
def test_member_may_not_manage_invite(client, owner, join, method, path):
    member = join("mia@example.com")
    kwargs = {"json": {"enabled": False}} if method == "patch" else {}
    reply = getattr(client, method)(f"/groups/{owner.gid}{path}", headers=member.headers, **kwargs)
    assert reply.status_code == 403


@pytest.mark.parametrize("method,path", [("get", "/invite"), ("patch", "/invite"),
                                         ("post", "/invite/rotate")])
def test_non_member_managing_invite_gets_not_found(client, owner, sign_in, method, path):
    headers, _ = sign_in("stranger@example.com")
    kwargs = {"json": {"enabled": False}} if method == "patch" else {}
    reply = getattr(client, method)(f"/groups/{owner.gid}{path}", headers=headers, **kwargs)
    assert reply.status_code == 404


def test_owner_disables_invite_and_code_stops_working(client, owner, sign_in, submit):
    reply = client.patch(f"/groups/{owner.gid}/invite", json={"enabled": False},
                         headers=owner.headers)
    assert reply.status_code == 200 and reply.get_json()["enabled"] is False
    headers, _ = sign_in("tess@example.com")
    assert client.get(f"/groups/{owner.gid}/invite/preview?code={owner.code}",
                      headers=headers).status_code == 404
    assert submit(headers).status_code == 404
    # Owners still see the settings, so they can switch the link back on.
    assert client.get(f"/groups/{owner.gid}/invite", headers=owner.headers).status_code == 200
    client.patch(f"/groups/{owner.gid}/invite", json={"enabled": True}, headers=owner.headers)
    assert submit(headers).status_code == 201


def test_default_role_becomes_the_proposed_role(client, owner, sign_in, submit):
    reply = client.patch(f"/groups/{owner.gid}/invite", json={"defaultRole": "VIEWER"},
                         headers=owner.headers)
    assert reply.get_json()["defaultRole"] == "VIEWER"
    headers, _ = sign_in("tess@example.com")
    assert submit(headers).get_json()["proposedRole"] == "VIEWER"


@pytest.mark.parametrize("body", [{"defaultRole": "OWNER"}, {"enabled": "maybe"},
                                  {"code": "mine"}])
def test_invalid_invite_patch_is_validation_error(client, owner, body):
    reply = client.patch(f"/groups/{owner.gid}/invite", json=body, headers=owner.headers)
    assert reply.status_code == 400


def test_rotation_replaces_the_code(client, owner, sign_in):
    reply = client.post(f"/groups/{owner.gid}/invite/rotate", headers=owner.headers)
    assert reply.status_code == 200
    new_code = reply.get_json()["code"]
    assert new_code != owner.code
    headers, _ = sign_in("tess@example.com")
    preview = f"/groups/{owner.gid}/invite/preview?code="
    assert client.get(preview + owner.code, headers=headers).status_code == 404
    assert client.get(preview + new_code, headers=headers).status_code == 200


def test_preview_shows_group_and_claimable_guests(client, owner, add_guest, join, sign_in):
    join("mia@example.com")
    free, reserved = add_guest("Gus"), add_guest("Rita")
    Participant(owner.gid, Participant.sort_key(reserved)).update(actions=[
        Participant.InvitedUserId.set("someone"),
        Participant.InviteExpiresAt.set("2999-01-01T00:00:00.000Z")])
    headers, _ = sign_in("tess@example.com")
    reply = client.get(f"/groups/{owner.gid}/invite/preview?code={owner.code}", headers=headers)
    assert reply.status_code == 200
    assert reply.get_json() == {
        "groupId": owner.gid, "name": "Trip", "currency": "EUR", "participantCount": 4,
        "claimableGuests": [{"participantId": free, "displayName": "Gus"}]}


def test_guest_with_expired_reservation_is_claimable(client, owner, add_guest, sign_in):
    guest = add_guest("Gus")
    Participant(owner.gid, Participant.sort_key(guest)).update(actions=[
        Participant.InviteExpiresAt.set("2000-01-01T00:00:00.000Z")])
    headers, _ = sign_in("tess@example.com")
    body = client.get(f"/groups/{owner.gid}/invite/preview?code={owner.code}",
                      headers=headers).get_json()
    assert [g["participantId"] for g in body["claimableGuests"]] == [guest]


def test_wrong_code_preview_is_not_found_after_one_read_past_the_profile(client, owner, sign_in):
    headers, _ = sign_in("tess@example.com")
    client.get("/users/me/join-requests", headers=headers)  # warm the token caches
    with count_dynamodb_calls() as calls:
        reply = client.get(f"/groups/{owner.gid}/invite/preview?code=guess", headers=headers)
    assert reply.status_code == 404
    # The caller's profile (read on every request) and the invite, nothing else of the group.
    assert dict(calls.calls) == {"GetItem": 2}


def test_preview_of_group_without_invite_is_not_found(client, owner, sign_in):
    Invite(*Invite.key(owner.gid)).delete()
    headers, _ = sign_in("tess@example.com")
    assert client.get(f"/groups/{owner.gid}/invite/preview?code={owner.code}",
                      headers=headers).status_code == 404


def test_preview_of_deleting_group_is_not_found(client, owner, sign_in):
    Group(*Group.key(owner.gid)).update(actions=[Group.Status.set("DELETING")])
    headers, _ = sign_in("tess@example.com")
    assert client.get(f"/groups/{owner.gid}/invite/preview?code={owner.code}",
                      headers=headers).status_code == 404


def test_preview_without_code_is_validation_error(client, owner, sign_in):
    headers, _ = sign_in("tess@example.com")
    reply = client.get(f"/groups/{owner.gid}/invite/preview", headers=headers)
    assert reply.status_code == 400
    assert "code" in reply.get_json()["error"]["details"]


def test_preview_needs_a_signed_in_user(client, owner):
    reply = client.get(f"/groups/{owner.gid}/invite/preview?code={owner.code}")
    assert reply.status_code == 401
