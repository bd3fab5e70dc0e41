"""Join requests: submit, owner review, approve (NEW and TAKEOVER), deny, cancel."""
from __future__ import annotations

import pytest

from app.errors import Conflict
from app.groups import join_requests
from app.core.access import authorize
from models.groups import JoinLock, JoinRequest, Participant, UserMember
from models.notifications import Event
from tests.groups.conftest import participant
from tests.support import aws_calls


def code_of(reply) -> str:
    return reply.get_json()["error"]["code"]


def approve(client, owner, request_id, role="MEMBER", headers=None):
    return client.post(f"/groups/{owner.gid}/join-requests/{request_id}/approve",
                       json={"role": role}, headers=headers or owner.headers)


def deny(client, owner, request_id, headers=None):
    return client.post(f"/groups/{owner.gid}/join-requests/{request_id}/deny",
                       headers=headers or owner.headers)


def lock_of(gid, user_id):
    return JoinLock.get(gid, JoinLock.sort_key(user_id), consistent_read=True)


@pytest.fixture
def applicant(sign_in):
    return sign_in("tess@example.com", display_name="Tess")


@pytest.fixture
def other_group(client, sign_in):
    """(groupId, invite code) of a second group, owned by someone else."""
    headers, _ = sign_in("other@example.com")
    gid = client.post("/groups", json={"name": "O", "currency": "EUR"},
                      headers=headers).get_json()["groupId"]
    return gid, client.get(f"/groups/{gid}/invite", headers=headers).get_json()["code"]


# --- submit --------------------------------------------------------------------------------

def test_submit_creates_a_pending_request_lock_and_event(client, owner, applicant, submit):
    headers, user_id = applicant
    reply = submit(headers, message="Hi, it's Tess")
    assert reply.status_code == 201
    body = reply.get_json()
    assert body["status"] == "PENDING" and body["mode"] == "NEW"
    assert body["applicantUserId"] == user_id and body["applicantDisplayName"] == "Tess"
    assert body["proposedRole"] == "MEMBER" and body["message"] == "Hi, it's Tess"
    lock = lock_of(owner.gid, user_id)
    assert (lock.LockType, lock.RequestId) == ("PENDING", body["requestId"])
    event_id = Event.event_id("JOIN_REQUEST_SUBMITTED", owner.gid, body["requestId"])
    assert Event.get(*Event.key(event_id)).ActorUserId == user_id


def test_submit_with_wrong_code_is_not_found(owner, applicant, submit):
    reply = submit(applicant[0], code="not-the-code")
    assert reply.status_code == 404
    with pytest.raises(JoinLock.DoesNotExist):
        lock_of(owner.gid, applicant[1])


def test_submit_to_unknown_group_is_not_found(applicant, submit):
    assert submit(applicant[0], gid="00000000-0000-4000-8000-000000000000").status_code == 404


def test_participant_submitting_is_already_member(owner, submit):
    reply = submit(owner.headers)
    assert reply.status_code == 409
    assert code_of(reply) == "ALREADY_MEMBER"


def test_second_submission_while_pending_is_request_pending(applicant, submit):
    submit(applicant[0])
    reply = submit(applicant[0])
    assert reply.status_code == 409
    assert code_of(reply) == "REQUEST_PENDING"


def test_takeover_of_a_claimed_participant_is_target_not_guest(owner, applicant, submit):
    reply = submit(applicant[0], mode="TAKEOVER", targetParticipantId=owner.pid)
    assert reply.status_code == 409
    assert code_of(reply) == "TARGET_NOT_GUEST"


def test_takeover_of_a_reserved_guest_is_target_not_guest(owner, applicant, submit, add_guest):
    guest = add_guest()
    Participant(owner.gid, Participant.sort_key(guest)).update(actions=[
        Participant.InviteExpiresAt.set("2999-01-01T00:00:00.000Z")])
    assert code_of(submit(applicant[0], mode="TAKEOVER", targetParticipantId=guest)) == \
        "TARGET_NOT_GUEST"


def test_takeover_of_unknown_participant_is_not_found(applicant, submit):
    reply = submit(applicant[0], mode="TAKEOVER",
                   targetParticipantId="00000000-0000-4000-8000-000000000000")
    assert reply.status_code == 404


@pytest.mark.parametrize("body", [
    {"mode": "TAKEOVER"},
    {"mode": "NEW", "targetParticipantId": "00000000-0000-4000-8000-000000000000"},
    {"mode": "NEW", "proposedRole": "OWNER"},
    {"mode": "JOIN"},
    {"mode": "NEW", "message": "x" * 501},
    {"mode": "NEW", "code": ""},
])
def test_invalid_submission_is_validation_error(applicant, submit, body):
    reply = submit(applicant[0], **body)
    assert reply.status_code == 400
    assert reply.get_json()["error"]["details"]


def test_submission_replays_with_the_same_idempotency_key(client, owner, applicant):
    headers = {**applicant[0], "Idempotency-Key": "join-1"}
    path, body = f"/groups/{owner.gid}/join-requests", {"code": owner.code, "mode": "NEW"}
    first = client.post(path, json=body, headers=headers)
    again = client.post(path, json=body, headers=headers)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()


# --- owner list ----------------------------------------------------------------------------

def test_owner_lists_pending_requests_oldest_first_with_paging(client, owner, sign_in, submit):
    ids = [submit(sign_in(f"a{i}@example.com")[0]).get_json()["requestId"] for i in range(3)]
    first = client.get(f"/groups/{owner.gid}/join-requests?limit=2", headers=owner.headers)
    page = first.get_json()
    assert [r["requestId"] for r in page["items"]] == ids[:2]
    rest = client.get(f"/groups/{owner.gid}/join-requests?limit=2&cursor={page['nextCursor']}",
                      headers=owner.headers).get_json()
    assert [r["requestId"] for r in rest["items"]] == ids[2:]


def test_tampered_cursor_is_validation_error(client, owner):
    reply = client.get(f"/groups/{owner.gid}/join-requests?cursor=abc", headers=owner.headers)
    assert reply.status_code == 400


def test_member_may_not_list_requests(client, owner, join):
    member = join("mia@example.com")
    assert client.get(f"/groups/{owner.gid}/join-requests",
                      headers=member.headers).status_code == 403


def test_non_member_listing_requests_gets_not_found(client, owner, applicant):
    assert client.get(f"/groups/{owner.gid}/join-requests",
                      headers=applicant[0]).status_code == 404


# --- approve -------------------------------------------------------------------------------

def test_approving_new_request_adds_a_participant(client, owner, applicant, submit):
    headers, user_id = applicant
    request_id = submit(headers).get_json()["requestId"]
    reply = approve(client, owner, request_id, role="VIEWER")
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["request"]["status"] == "APPROVED" and body["request"]["finalRole"] == "VIEWER"
    member = body["participant"]
    assert (member["type"], member["userId"], member["role"], member["displayName"]) == \
        ("USER", user_id, "VIEWER", "Tess")
    assert body["request"]["participantId"] == member["participantId"]
    me = client.get(f"/groups/{owner.gid}", headers=headers).get_json()
    assert (me["myRole"], me["myParticipantId"]) == ("VIEWER", member["participantId"])
    row = JoinRequest.get(owner.gid, JoinRequest.sort_key(request_id))
    assert row.PendingKey is None and row.UserPendingKey is None
    with pytest.raises(JoinLock.DoesNotExist):
        lock_of(owner.gid, user_id)
    assert client.get(f"/groups/{owner.gid}/join-requests",
                      headers=owner.headers).get_json()["items"] == []
    event_id = Event.event_id("JOIN_REQUEST_DECIDED", owner.gid, request_id)
    assert Event.get(*Event.key(event_id)).Recipients == {user_id}


def test_approving_takeover_claims_the_guest_keeping_its_id(client, owner, applicant, submit,
                                                            add_guest):
    headers, user_id = applicant
    guest = add_guest("Gus")
    Participant(owner.gid, Participant.sort_key(guest)).update(actions=[
        Participant.InvitedUserId.set("someone-else"),
        Participant.InviteExpiresAt.set("2000-01-01T00:00:00.000Z")])  # stale reservation
    request_id = submit(headers, mode="TAKEOVER", targetParticipantId=guest).get_json()["requestId"]
    reply = approve(client, owner, request_id)
    assert reply.status_code == 200
    assert reply.get_json()["participant"]["participantId"] == guest
    row = participant(owner.gid, guest)
    assert (row.Type, row.UserId, row.Role, row.DisplayName) == ("USER", user_id, "MEMBER", "Tess")
    assert row.ClaimedAt and row.InviteExpiresAt is None and row.InvitedUserId is None
    assert UserMember.get(owner.gid, UserMember.sort_key(user_id)).ParticipantId == guest
    roster = client.get(f"/groups/{owner.gid}/participants", headers=owner.headers).get_json()
    assert len(roster["items"]) == 2


def test_takeover_of_guest_reserved_after_submission_is_target_not_guest(client, owner,
                                                                         applicant, submit,
                                                                         add_guest):
    guest = add_guest()
    request_id = submit(applicant[0], mode="TAKEOVER",
                        targetParticipantId=guest).get_json()["requestId"]
    Participant(owner.gid, Participant.sort_key(guest)).update(actions=[
        Participant.InviteExpiresAt.set("2999-01-01T00:00:00.000Z")])
    reply = approve(client, owner, request_id)
    assert reply.status_code == 409 and code_of(reply) == "TARGET_NOT_GUEST"
    assert participant(owner.gid, guest).Type == "GUEST"
    with pytest.raises(UserMember.DoesNotExist):
        UserMember.get(owner.gid, UserMember.sort_key(applicant[1]))


def test_takeover_of_guest_claimed_by_someone_else_is_target_not_guest(client, owner, sign_in,
                                                                       submit, add_guest):
    guest = add_guest()
    first = submit(sign_in("a@example.com")[0], mode="TAKEOVER", targetParticipantId=guest)
    second = submit(sign_in("b@example.com")[0], mode="TAKEOVER", targetParticipantId=guest)
    assert approve(client, owner, first.get_json()["requestId"]).status_code == 200
    reply = approve(client, owner, second.get_json()["requestId"])
    assert reply.status_code == 409 and code_of(reply) == "TARGET_NOT_GUEST"


def test_approving_twice_is_not_pending(client, owner, applicant, submit):
    request_id = submit(applicant[0]).get_json()["requestId"]
    approve(client, owner, request_id)
    reply = approve(client, owner, request_id)
    assert reply.status_code == 409 and code_of(reply) == "NOT_PENDING"


def test_approving_an_applicant_who_joined_meanwhile_is_already_member(client, owner, applicant,
                                                                       submit):
    headers, user_id = applicant
    request_id = submit(headers).get_json()["requestId"]
    # Joined through another path (e.g. a direct invitation) after submitting.
    UserMember(owner.gid, UserMember.sort_key(user_id), ParticipantId="p", Role="MEMBER").save()
    reply = approve(client, owner, request_id)
    assert reply.status_code == 409 and code_of(reply) == "ALREADY_MEMBER"
    assert len(client.get(f"/groups/{owner.gid}/participants",
                          headers=owner.headers).get_json()["items"]) == 1


def test_approving_as_owner_is_refused(client, owner, applicant, submit):
    request_id = submit(applicant[0]).get_json()["requestId"]
    reply = approve(client, owner, request_id, role="OWNER")
    assert reply.status_code == 400 and "role" in reply.get_json()["error"]["details"]


def test_approve_needs_a_role(client, owner, applicant, submit):
    request_id = submit(applicant[0]).get_json()["requestId"]
    reply = client.post(f"/groups/{owner.gid}/join-requests/{request_id}/approve", json={},
                        headers=owner.headers)
    assert reply.status_code == 400


def test_member_may_not_approve(client, owner, join, applicant, submit):
    member = join("mia@example.com")
    request_id = submit(applicant[0]).get_json()["requestId"]
    assert approve(client, owner, request_id, headers=member.headers).status_code == 403
    assert deny(client, owner, request_id, headers=member.headers).status_code == 403


def test_applicant_cannot_approve_their_own_request(client, owner, applicant, submit):
    request_id = submit(applicant[0]).get_json()["requestId"]
    assert approve(client, owner, request_id, headers=applicant[0]).status_code == 404


def test_approving_unknown_request_is_not_found(client, owner):
    missing = "00000000-0000-4000-8000-000000000000"
    assert approve(client, owner, missing).status_code == 404
    assert deny(client, owner, missing).status_code == 404


def test_request_of_another_group_is_not_found_here(client, owner, applicant, submit,
                                                    other_group):
    other, code = other_group
    request_id = submit(applicant[0], gid=other, code=code).get_json()["requestId"]
    assert approve(client, owner, request_id).status_code == 404


# --- deny ----------------------------------------------------------------------------------

def test_deny_turns_the_lock_into_a_denied_lock(client, owner, applicant, submit):
    headers, user_id = applicant
    request_id = submit(headers).get_json()["requestId"]
    reply = deny(client, owner, request_id)
    assert reply.status_code == 200 and reply.get_json()["status"] == "DENIED"
    lock = lock_of(owner.gid, user_id)
    assert (lock.LockType, lock.RequestId) == ("DENIED", request_id)
    assert client.get("/users/me/join-requests", headers=headers).get_json()["items"] == []
    event_id = Event.event_id("JOIN_REQUEST_DECIDED", owner.gid, request_id)
    assert Event.get(*Event.key(event_id)).Payload["status"] == "DENIED"


def test_denied_applicant_may_reapply_with_the_current_code(client, owner, applicant, submit):
    headers, user_id = applicant
    deny(client, owner, submit(headers).get_json()["requestId"])
    again = submit(headers)
    assert again.status_code == 201
    assert lock_of(owner.gid, user_id).LockType == "PENDING"


def test_denied_applicant_cannot_reapply_after_rotation(client, owner, applicant, submit):
    headers, user_id = applicant
    deny(client, owner, submit(headers).get_json()["requestId"])
    client.post(f"/groups/{owner.gid}/invite/rotate", headers=owner.headers)
    assert submit(headers).status_code == 404
    assert lock_of(owner.gid, user_id).LockType == "DENIED"


def test_denying_twice_is_not_pending(client, owner, applicant, submit):
    request_id = submit(applicant[0]).get_json()["requestId"]
    deny(client, owner, request_id)
    reply = deny(client, owner, request_id)
    assert reply.status_code == 409 and code_of(reply) == "NOT_PENDING"
    assert code_of(approve(client, owner, request_id)) == "NOT_PENDING"


# --- cancel --------------------------------------------------------------------------------

def test_applicant_cancels_and_may_submit_again(client, owner, applicant, submit):
    headers, user_id = applicant
    request_id = submit(headers).get_json()["requestId"]
    reply = client.delete(f"/groups/{owner.gid}/join-requests/{request_id}", headers=headers)
    assert reply.status_code == 204
    assert JoinRequest.get(owner.gid, JoinRequest.sort_key(request_id)).Status == "CANCELLED"
    with pytest.raises(JoinLock.DoesNotExist):
        lock_of(owner.gid, user_id)
    assert submit(headers).status_code == 201


def test_someone_else_cancelling_is_not_found(client, owner, applicant, submit):
    request_id = submit(applicant[0]).get_json()["requestId"]
    reply = client.delete(f"/groups/{owner.gid}/join-requests/{request_id}",
                          headers=owner.headers)
    assert reply.status_code == 404


def test_cancelling_a_decided_request_is_not_pending(client, owner, applicant, submit):
    request_id = submit(applicant[0]).get_json()["requestId"]
    deny(client, owner, request_id)
    reply = client.delete(f"/groups/{owner.gid}/join-requests/{request_id}",
                          headers=applicant[0])
    assert reply.status_code == 409 and code_of(reply) == "NOT_PENDING"


def test_cancelling_unknown_request_is_not_found(client, owner, applicant):
    missing = "00000000-0000-4000-8000-000000000000"
    assert client.delete(f"/groups/{owner.gid}/join-requests/{missing}",
                         headers=applicant[0]).status_code == 404


# --- the applicant's list ------------------------------------------------------------------

def test_applicant_lists_pending_requests_across_groups(client, owner, applicant, submit,
                                                        other_group):
    other, code = other_group
    mine = {submit(applicant[0]).get_json()["requestId"],
            submit(applicant[0], gid=other, code=code).get_json()["requestId"]}
    page = client.get("/users/me/join-requests", headers=applicant[0]).get_json()
    assert {r["requestId"] for r in page["items"]} == mine
    assert page["nextCursor"] is None
    first = client.get("/users/me/join-requests?limit=1", headers=applicant[0]).get_json()
    assert len(first["items"]) == 1 and first["nextCursor"]


def test_idempotency_key_reused_with_another_body_is_unprocessable(client, owner, applicant):
    headers = {**applicant[0], "Idempotency-Key": "join-2"}
    path = f"/groups/{owner.gid}/join-requests"
    client.post(path, json={"code": owner.code, "mode": "NEW"}, headers=headers)
    reply = client.post(path, json={"code": owner.code, "mode": "NEW", "message": "hi"},
                        headers=headers)
    assert reply.status_code == 422
    assert code_of(reply) == "IDEMPOTENCY_KEY_REUSED"


@pytest.mark.parametrize("loser", ["approve", "deny"])
def test_decision_losing_to_another_decision_is_not_pending(owner, applicant, submit, loser,
                                                            monkeypatch):
    request_id = submit(applicant[0]).get_json()["requestId"]
    access = authorize(owner.user_id, owner.gid, "OWNER")
    stale = join_requests._get_request(owner.gid, request_id)  # read before the other commits
    join_requests.approve_join_request(access, request_id, role="MEMBER")
    reads = iter([stale])
    real = join_requests._get_request
    monkeypatch.setattr(join_requests, "_get_request",
                        lambda gid, rid, access=None: next(reads, None) or real(gid, rid))
    decide = {"approve": lambda: join_requests.approve_join_request(access, request_id,
                                                                    role="VIEWER"),
              "deny": lambda: join_requests.deny_join_request(access, request_id)}[loser]
    with pytest.raises(Conflict) as caught:
        decide()
    assert caught.value.code == "NOT_PENDING"


def test_approve_is_three_dynamodb_calls_with_the_profile_read(client, owner, applicant, submit):
    """The caller's profile (every request reads it), the authorization and the request in
    one BatchGetItem; the applicant's name; one commit."""
    headers, _ = applicant
    request_id = submit(headers).get_json()["requestId"]
    client.get("/users/me", headers=owner.headers)  # the owner's identity is cached, as warm
    with aws_calls.recorded() as calls:
        assert approve(client, owner, request_id).status_code == 200
    assert calls == ["BatchGetItem", "GetItem", "TransactWriteItems"]
