"""The invitation expiry sweep reads a bounded amount per run: due invitations come from the
inviters' SentInvitation pointers through ScanRecoveryIndex (a Query per shard, no Scan of
People)."""
from __future__ import annotations


from app.people import invitation_expiry
from models.groups import Participant
from models.people import GroupInvitation
from models.users import SentInvitation
from tests.support import aws_calls

PAST = "2020-01-01T00:00:00.000Z"


def _invite(client, owner, invitee) -> str:
    reply = client.post(f"/groups/{owner.gid}/invitations",
                        json={"userId": invitee.user_id, "role": "MEMBER"}, headers=owner.headers)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()["participantId"]


def _expire_now(owner, invitee, pid) -> None:
    GroupInvitation(*GroupInvitation.key(invitee.user_id, owner.gid)).update(
        actions=[GroupInvitation.ExpiresAt.set(PAST)])
    Participant(owner.gid, Participant.sort_key(pid)).update(
        actions=[Participant.InviteExpiresAt.set(PAST)])
    SentInvitation(owner.user_id, SentInvitation.sort_key(owner.gid, invitee.user_id)).update(
        actions=[SentInvitation.RecoveryDueAt.set(PAST)])


def test_a_due_invitation_is_found_through_its_pointer_without_a_scan(client, person, owner):
    fay = person("f@example.com", "Fay", "fay_f")
    pid = _invite(client, owner, fay)
    _expire_now(owner, fay, pid)

    with aws_calls.recorded() as calls:
        assert invitation_expiry.expire_invitations() == {"invitationsExpired": 1}

    assert "Scan" not in calls
    assert calls.count("Query") == len(SentInvitation.shards())
    assert GroupInvitation.raw_get(*GroupInvitation.key(fay.user_id, owner.gid)) is None
    assert SentInvitation.count(owner.user_id) == 0  # the pointer went with it
    guest = Participant.get(owner.gid, Participant.sort_key(pid))
    assert (guest.Type, guest.InvitedUserId, guest.InviteExpiresAt) == ("GUEST", fay.user_id, None)


def test_a_live_invitation_keeps_its_pointer(client, person, owner):
    fay = person("f@example.com", "Fay", "fay_f")
    _invite(client, owner, fay)
    assert invitation_expiry.expire_invitations() == {"invitationsExpired": 0}
    assert SentInvitation.count(owner.user_id) == 1
