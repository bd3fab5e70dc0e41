"""Friends (both sides in one transaction, events) and direct invitations into a guest slot."""
from __future__ import annotations

import pytest

from models.groups import Expense, Participant, UserMember
from models.notifications import Event
from models.people import Friendship, GroupInvitation
from models.users import SentInvitation
from app.people import invitation_expiry


def _befriend(client, a, b):
    assert client.post("/people/me/friends", json={"userId": b.user_id},
                       headers=a.headers).status_code == 201
    assert client.post(f"/people/me/friends/{a.user_id}/accept",
                       headers=b.headers).status_code == 200


def _invite(client, owner, invitee, **body):
    return client.post(f"/groups/{owner.gid}/invitations",
                       json={"userId": invitee.user_id, "role": "MEMBER", **body},
                       headers=owner.headers)


def _guest(client, owner, name="Gus"):
    reply = client.post(f"/groups/{owner.gid}/participants", json={"displayName": name},
                        headers=owner.headers)
    return reply.get_json()["participantId"]


def _row(gid, pid):
    return Participant.get(gid, Participant.sort_key(pid), consistent_read=True)


# --- friends -------------------------------------------------------------------------------

def test_friend_request_writes_both_sides_and_an_event(client, person):
    ann, bob = person("a@example.com", "Ann"), person("b@example.com", "Bob")
    reply = client.post("/people/me/friends", json={"userId": bob.user_id}, headers=ann.headers)
    assert reply.status_code == 201 and reply.get_json()["status"] == "OUTGOING"
    mine = Friendship.get(*Friendship.key(ann.user_id, bob.user_id))
    theirs = Friendship.get(*Friendship.key(bob.user_id, ann.user_id))
    assert (mine.Status, theirs.Status) == ("OUTGOING", "INCOMING")
    events = [e for e in Event.scan() if e.Type == "FRIEND_REQUEST"]
    assert [e.Recipients for e in events] == [{bob.user_id}]


def test_repeat_request_is_409_and_self_request_is_400(client, person):
    ann, bob = person("a@example.com", "Ann"), person("b@example.com", "Bob")
    client.post("/people/me/friends", json={"userId": bob.user_id}, headers=ann.headers)
    again = client.post("/people/me/friends", json={"userId": bob.user_id}, headers=ann.headers)
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "FRIEND_REQUEST_PENDING"
    me = client.post("/people/me/friends", json={"userId": ann.user_id}, headers=ann.headers)
    assert me.status_code == 400


def test_accept_makes_both_sides_friends_and_raises_friend_accepted(client, person):
    ann, bob = person("a@example.com", "Ann", "ann_a"), person("b@example.com", "Bob")
    _befriend(client, ann, bob)
    listed = client.get("/people/me/friends", headers=ann.headers).get_json()["items"]
    assert [(f["userId"], f["status"], f["handle"]) for f in listed] == [
        (bob.user_id, "ACCEPTED", None)]
    assert client.get("/people/me/friends", headers=bob.headers).get_json()["items"][0][
        "handle"] == "ann_a"
    assert any(e.Type == "FRIEND_ACCEPTED" and e.Recipients == {ann.user_id}
               for e in Event.scan())


def test_only_the_addressee_can_accept(client, person):
    ann, bob = person("a@example.com", "Ann"), person("b@example.com", "Bob")
    client.post("/people/me/friends", json={"userId": bob.user_id}, headers=ann.headers)
    assert client.post(f"/people/me/friends/{bob.user_id}/accept",
                       headers=ann.headers).status_code == 404


def test_decline_removes_both_sides(client, person):
    ann, bob = person("a@example.com", "Ann"), person("b@example.com", "Bob")
    client.post("/people/me/friends", json={"userId": bob.user_id}, headers=ann.headers)
    assert client.delete(f"/people/me/friends/{ann.user_id}",
                         headers=bob.headers).status_code == 204
    assert list(Friendship.scan()) == []
    assert client.delete(f"/people/me/friends/{ann.user_id}",
                         headers=bob.headers).status_code == 404


# --- invitations ---------------------------------------------------------------------------

def test_invitation_reserves_a_new_guest_atomically_with_the_row(client, person, owner):
    fay = person("f@example.com", "Fay", "fay_f")
    reply = _invite(client, owner, fay)
    assert reply.status_code == 201, reply.get_json()
    body = reply.get_json()
    guest = _row(owner.gid, body["participantId"])
    assert (guest.Type, guest.InvitedUserId, guest.InviteExpiresAt) == (
        "GUEST", fay.user_id, body["expiresAt"])
    row = GroupInvitation.get(*GroupInvitation.key(fay.user_id, owner.gid))
    assert row.ParticipantId == body["participantId"]
    listed = client.get(f"/groups/{owner.gid}/invitations", headers=owner.headers).get_json()
    assert [i["userId"] for i in listed["items"]] == [fay.user_id]
    mine = client.get("/people/me/invitations", headers=fay.headers).get_json()["items"]
    assert [(i["groupId"], i["groupName"]) for i in mine] == [(owner.gid, "Trip")]
    assert any(e.Type == "GROUP_INVITATION" and e.Recipients == {fay.user_id}
               for e in Event.scan())


def test_accept_claims_the_named_guest_keeping_its_id_and_expenses(client, person, owner):
    fay = person("f@example.com", "Fay", "fay_f")
    gus = _guest(client, owner)
    expense = client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers, json={
        "description": "Taxi", "date": "2026-01-02", "amount": 900, "splitMode": "EQUAL",
        "payments": [{"participantId": owner.pid, "amount": 900}],
        "splits": [{"participantId": gus, "value": 1}]}).get_json()
    assert _invite(client, owner, fay, participantId=gus).status_code == 201
    reply = client.post(f"/people/me/invitations/{owner.gid}/accept", headers=fay.headers)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["participant"] == {
        "participantId": gus, "type": "USER", "userId": fay.user_id, "displayName": "Fay",
        "role": "MEMBER", "claimedAt": reply.get_json()["participant"]["claimedAt"],
        "createdAt": reply.get_json()["participant"]["createdAt"], "household": None}
    guard = UserMember.get(owner.gid, UserMember.sort_key(fay.user_id))
    assert (guard.ParticipantId, guard.Role) == (gus, "MEMBER")
    assert _row(owner.gid, gus).InviteExpiresAt is None
    assert GroupInvitation.count(f"USER#{fay.user_id}") == 0
    balances = client.get(f"/groups/{owner.gid}/balances", headers=fay.headers).get_json()
    assert {b["participantId"]: b["net"] for b in balances["balances"]}[gus] == -900
    stored = Expense.get(owner.gid, Expense.sort_key(expense["expenseId"]))
    assert stored.Items[0].Splits[0].ParticipantId == gus


def test_inviting_a_member_is_409_and_an_invisible_user_is_404(client, person, owner):
    hidden = person("h@example.com", "Hidden", "hidden_h", discoverable=False)
    assert _invite(client, owner, hidden).status_code == 404
    ghost = type("U", (), {"user_id": "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d"})
    assert _invite(client, owner, ghost).status_code == 404
    _befriend(client, owner, hidden)  # a friend may be invited even if hidden
    assert _invite(client, owner, hidden).status_code == 201
    client.post(f"/people/me/invitations/{owner.gid}/accept", headers=hidden.headers)
    again = _invite(client, owner, hidden)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "ALREADY_MEMBER"


def test_a_second_live_invitation_of_one_user_is_409(client, person, owner):
    fay = person("f@example.com", "Fay", "fay_f")
    _invite(client, owner, fay)
    again = _invite(client, owner, fay)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "INVITATION_PENDING"


def test_a_reserved_guest_cannot_be_reserved_again_or_taken_over(client, person, owner):
    fay, gil = person("f@example.com", "Fay", "fay_f"), person("g@example.com", "Gil", "gil_g")
    gus = _guest(client, owner)
    _invite(client, owner, fay, participantId=gus)
    other = _invite(client, owner, gil, participantId=gus)
    assert other.status_code == 409 and other.get_json()["error"]["code"] == "TARGET_NOT_GUEST"
    code = client.get(f"/groups/{owner.gid}/invite", headers=owner.headers).get_json()["code"]
    preview = client.get(f"/groups/{owner.gid}/invite/preview", query_string={"code": code},
                         headers=gil.headers).get_json()
    assert gus not in [g["participantId"] for g in preview["claimableGuests"]]
    takeover = client.post(f"/groups/{owner.gid}/join-requests", headers=gil.headers, json={
        "code": code, "mode": "TAKEOVER", "targetParticipantId": gus})
    assert takeover.status_code == 409


def test_decline_and_revoke_keep_the_guest_and_its_link_for_a_reinvite(client, person, owner):
    fay = person("f@example.com", "Fay", "fay_f")
    first = _invite(client, owner, fay).get_json()["participantId"]
    assert client.post(f"/people/me/invitations/{owner.gid}/decline",
                       headers=fay.headers).status_code == 204
    guest = _row(owner.gid, first)
    assert (guest.Type, guest.InvitedUserId, guest.InviteExpiresAt) == ("GUEST", fay.user_id, None)
    # A re-invite takes up the same guest; a revoke then keeps it again.
    assert _invite(client, owner, fay).get_json()["participantId"] == first
    assert client.delete(f"/groups/{owner.gid}/invitations/{fay.user_id}",
                         headers=owner.headers).status_code == 204
    assert _row(owner.gid, first).InviteExpiresAt is None
    accept = client.post(f"/people/me/invitations/{owner.gid}/accept", headers=fay.headers)
    assert accept.status_code == 404


def test_an_expired_invitation_is_409_and_swept_leaving_the_guest(client, person, owner):
    fay = person("f@example.com", "Fay", "fay_f")
    pid = _invite(client, owner, fay).get_json()["participantId"]
    past = "2020-01-01T00:00:00.000Z"
    GroupInvitation(*GroupInvitation.key(fay.user_id, owner.gid)).update(
        actions=[GroupInvitation.ExpiresAt.set(past)])
    Participant(owner.gid, Participant.sort_key(pid)).update(
        actions=[Participant.InviteExpiresAt.set(past)])
    # The inviter's pointer files the invitation under its deadline: the sweep finds it there.
    SentInvitation(owner.user_id, SentInvitation.sort_key(owner.gid, fay.user_id)).update(
        actions=[SentInvitation.RecoveryDueAt.set(past)])
    reply = client.post(f"/people/me/invitations/{owner.gid}/accept", headers=fay.headers)
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "INVITATION_EXPIRED"
    assert client.get("/people/me/invitations", headers=fay.headers).get_json()["items"] == []
    assert invitation_expiry.expire_invitations() == {"invitationsExpired": 1}
    guest = _row(owner.gid, pid)
    assert (guest.Type, guest.InvitedUserId, guest.InviteExpiresAt) == ("GUEST", fay.user_id, None)


def test_removing_a_reserved_guest_drops_its_invitation(client, person, owner):
    fay = person("f@example.com", "Fay", "fay_f")
    pid = _invite(client, owner, fay).get_json()["participantId"]
    assert client.delete(f"/groups/{owner.gid}/participants/{pid}",
                         headers=owner.headers).status_code == 204
    assert GroupInvitation.count(f"USER#{fay.user_id}") == 0


def test_members_who_are_not_owners_cannot_invite(client, person, owner):
    fay, gil = person("f@example.com", "Fay", "fay_f"), person("g@example.com", "Gil", "gil_g")
    _invite(client, owner, fay)
    client.post(f"/people/me/invitations/{owner.gid}/accept", headers=fay.headers)
    fay.gid = owner.gid
    assert _invite(client, fay, gil).status_code == 403


def test_an_invitation_that_needs_a_new_guest_counts_against_the_group_cap(client, person, owner):
    from app.limits import MAX_GROUP_PARTICIPANTS
    from models.groups import Group
    fay = person("f@example.com", "Fay", "fay_f")
    Group(*Group.key(owner.gid)).update(
        actions=[Group.ParticipantCount.set(MAX_GROUP_PARTICIPANTS)])
    reply = _invite(client, owner, fay)
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "GROUP_FULL"
    with pytest.raises(GroupInvitation.DoesNotExist):
        GroupInvitation.get(*GroupInvitation.key(fay.user_id, owner.gid), consistent_read=True)
    Group(*Group.key(owner.gid)).update(
        actions=[Group.ParticipantCount.set(MAX_GROUP_PARTICIPANTS - 1)])
    assert _invite(client, owner, fay).status_code == 201
    assert Group.get(*Group.key(owner.gid)).ParticipantCount == MAX_GROUP_PARTICIPANTS


def test_an_invitation_into_an_archived_group_waits_until_it_is_unarchived(client, person, owner):
    fay = person("fa@example.com", "Fay", "fay_fa")
    gus = _guest(client, owner)
    assert _invite(client, owner, fay, participantId=gus).status_code == 201
    assert client.post(f"/groups/{owner.gid}/archive", headers=owner.headers).status_code == 200

    refused = client.post(f"/people/me/invitations/{owner.gid}/accept", headers=fay.headers)

    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "GROUP_ARCHIVED"
    assert client.post(f"/groups/{owner.gid}/unarchive", headers=owner.headers).status_code == 200
    accepted = client.post(f"/people/me/invitations/{owner.gid}/accept", headers=fay.headers)
    assert accepted.status_code == 200, accepted.get_json()
