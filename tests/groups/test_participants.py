"""Participant role changes, guest renames, removal and leaving."""
from __future__ import annotations

import pytest

from app.errors import Conflict, Forbidden
from app.groups import participants
from app.core.access import authorize
from models.groups import (Comment, Expense, Group, ItemMap, JoinLock, JoinRequest,
                           PaymentMap, RecurringExpense, ExpenseTemplateMap, Settlement, SplitMap,
                           UserMember)
from tests.groups.conftest import participant, record_money


def patch(client, owner, pid, body, headers=None):
    return client.patch(f"/groups/{owner.gid}/participants/{pid}", json=body,
                        headers=headers or owner.headers)


def owner_count(gid: str) -> int:
    return int(Group.get(*Group.key(gid), consistent_read=True).OwnerCount)


def error_code(reply) -> str:
    return reply.get_json()["error"]["code"]


# --- role changes --------------------------------------------------------------------------

def test_promoting_a_member_to_owner_counts_a_second_owner(client, owner, join):
    member = join("mia@example.com")
    reply = patch(client, owner, member.pid, {"role": "OWNER"})
    assert reply.status_code == 200
    assert reply.get_json()["role"] == "OWNER"
    assert owner_count(owner.gid) == 2
    # The guard row mirrors the role, so the new owner is authorized as one at once.
    assert client.patch(f"/groups/{owner.gid}", json={"name": "Ours"},
                        headers=member.headers).status_code == 200


def test_demoting_an_owner_updates_count_and_guard(client, owner, join):
    member = join("mia@example.com")
    patch(client, owner, member.pid, {"role": "OWNER"})
    reply = patch(client, owner, member.pid, {"role": "VIEWER"})
    assert reply.status_code == 200
    assert owner_count(owner.gid) == 1
    assert UserMember.get(owner.gid, UserMember.sort_key(member.user_id)).Role == "VIEWER"
    assert client.post(f"/groups/{owner.gid}/participants", json={"displayName": "G"},
                       headers=member.headers).status_code == 403


def test_demoting_the_last_owner_is_last_owner_conflict(client, owner):
    reply = patch(client, owner, owner.pid, {"role": "MEMBER"})
    assert reply.status_code == 409
    assert error_code(reply) == "LAST_OWNER"
    assert participant(owner.gid, owner.pid).Role == "OWNER"
    assert owner_count(owner.gid) == 1


def test_an_owner_may_step_down_while_another_owner_remains(client, owner, join):
    member = join("mia@example.com")
    patch(client, owner, member.pid, {"role": "OWNER"})
    assert patch(client, owner, owner.pid, {"role": "MEMBER"}).status_code == 200
    assert owner_count(owner.gid) == 1
    me = client.get(f"/groups/{owner.gid}", headers=owner.headers).get_json()
    assert me["myRole"] == "MEMBER"


def test_member_to_viewer_leaves_owner_count_alone(client, owner, join):
    member = join("mia@example.com")
    assert patch(client, owner, member.pid, {"role": "VIEWER"}).get_json()["role"] == "VIEWER"
    assert owner_count(owner.gid) == 1


def test_guest_cannot_be_made_owner(client, owner, add_guest):
    reply = patch(client, owner, add_guest(), {"role": "OWNER"})
    assert reply.status_code == 400
    assert "role" in reply.get_json()["error"]["details"]


def test_guest_role_records_the_role_after_claim(client, owner, add_guest):
    guest = add_guest()
    assert patch(client, owner, guest, {"role": "VIEWER"}).get_json()["role"] == "VIEWER"


def test_guest_is_renamed(client, owner, add_guest):
    guest = add_guest("Gus")
    reply = patch(client, owner, guest, {"displayName": "Gustav"})
    assert reply.status_code == 200
    assert participant(owner.gid, guest).DisplayName == "Gustav"


def test_renaming_a_user_participant_is_refused(client, owner, join):
    member = join("mia@example.com")
    reply = patch(client, owner, member.pid, {"displayName": "Nickname"})
    assert reply.status_code == 400
    assert "displayName" in reply.get_json()["error"]["details"]


def test_member_may_not_change_roles(client, owner, join):
    member = join("mia@example.com")
    assert patch(client, owner, owner.pid, {"role": "MEMBER"}, member.headers).status_code == 403


def test_patching_unknown_participant_is_not_found(client, owner):
    missing = "00000000-0000-4000-8000-000000000000"
    assert patch(client, owner, missing, {"role": "MEMBER"}).status_code == 404


def test_participant_of_another_group_is_not_found_here(client, owner, sign_in):
    headers, _ = sign_in("other@example.com")
    other = client.post("/groups", json={"name": "Other", "currency": "EUR"},
                        headers=headers).get_json()
    client.post(f"/groups/{other['groupId']}/participants", json={"displayName": "G"},
                headers=headers)
    assert patch(client, owner, other["myParticipantId"], {"role": "MEMBER"}).status_code == 404
    assert client.delete(f"/groups/{owner.gid}/participants/{other['myParticipantId']}",
                         headers=owner.headers).status_code == 404


def test_non_member_patching_participant_gets_not_found(client, owner, sign_in):
    headers, _ = sign_in("stranger@example.com")
    assert patch(client, owner, owner.pid, {"role": "MEMBER"}, headers).status_code == 404


@pytest.mark.parametrize("body", [{"role": "ADMIN"}, {"displayName": ""}, {"nick": "x"}])
def test_invalid_participant_patch_is_validation_error(client, owner, body):
    assert patch(client, owner, owner.pid, body).status_code == 400


def test_legacy_group_without_owner_count_is_healed_on_first_owner_change(client, owner, join):
    member = join("mia@example.com")
    Group(*Group.key(owner.gid)).update(actions=[Group.OwnerCount.remove()])
    assert patch(client, owner, member.pid, {"role": "OWNER"}).status_code == 200
    assert owner_count(owner.gid) == 2


def test_legacy_group_sole_owner_demotion_is_last_owner(client, owner):
    Group(*Group.key(owner.gid)).update(actions=[Group.OwnerCount.remove()])
    reply = patch(client, owner, owner.pid, {"role": "MEMBER"})
    assert error_code(reply) == "LAST_OWNER"


def test_legacy_group_demotion_heals_count_from_roster(client, owner, join):
    member = join("mia@example.com")
    patch(client, owner, member.pid, {"role": "OWNER"})
    Group(*Group.key(owner.gid)).update(actions=[Group.OwnerCount.remove()])
    assert patch(client, owner, member.pid, {"role": "MEMBER"}).status_code == 200
    assert owner_count(owner.gid) == 1


def test_a_demoted_owner_holding_stale_access_is_refused(client, owner, join):
    member = join("mia@example.com")
    patch(client, owner, member.pid, {"role": "OWNER"})
    stale = authorize(member.user_id, owner.gid, "OWNER")
    patch(client, owner, member.pid, {"role": "MEMBER"})
    guest = participants.add_guest(authorize(owner.user_id, owner.gid), display_name="G")
    with pytest.raises(Forbidden):
        participants.update_participant(stale, guest.ParticipantId, role="VIEWER")


# --- removal -------------------------------------------------------------------------------

def test_owner_removes_a_guest(client, owner, add_guest):
    guest = add_guest()
    assert client.delete(f"/groups/{owner.gid}/participants/{guest}",
                         headers=owner.headers).status_code == 204
    roster = client.get(f"/groups/{owner.gid}/participants", headers=owner.headers).get_json()
    assert [p["participantId"] for p in roster["items"]] == [owner.pid]


def test_removing_a_user_drops_their_guard_so_they_can_rejoin(client, owner, join, submit):
    member = join("mia@example.com")
    assert client.delete(f"/groups/{owner.gid}/participants/{member.pid}",
                         headers=owner.headers).status_code == 204
    assert client.get(f"/groups/{owner.gid}", headers=member.headers).status_code == 404
    assert submit(member.headers).status_code == 201


def test_removing_another_owner_decrements_owner_count(client, owner, join):
    member = join("mia@example.com")
    patch(client, owner, member.pid, {"role": "OWNER"})
    assert client.delete(f"/groups/{owner.gid}/participants/{member.pid}",
                         headers=owner.headers).status_code == 204
    assert owner_count(owner.gid) == 1


def test_removing_the_last_owner_is_last_owner_conflict(client, owner):
    reply = client.delete(f"/groups/{owner.gid}/participants/{owner.pid}", headers=owner.headers)
    assert reply.status_code == 409
    assert error_code(reply) == "LAST_OWNER"
    assert participant(owner.gid, owner.pid)


def expense_naming(gid: str, payer: str, debtor: str, expense_id: str = "e1") -> Expense:
    return Expense(gid, Expense.sort_key(expense_id), ExpenseId=expense_id, Description="Taxi",
                   Date="2026-01-01", Currency="EUR", Amount=100,
                   Payments=[PaymentMap(ParticipantId=payer, Amount=100)],
                   Items=[ItemMap(Name="Taxi", Amount=100, SplitMode="EQUAL",
                                  Splits=[SplitMap(ParticipantId=debtor, Value=1, Amount=100)])])


def test_guest_paying_an_expense_is_participant_referenced(client, owner, add_guest):
    guest = add_guest()
    expense_naming(owner.gid, guest, owner.pid).save()
    reply = client.delete(f"/groups/{owner.gid}/participants/{guest}", headers=owner.headers)
    assert reply.status_code == 409
    assert error_code(reply) == "PARTICIPANT_REFERENCED"


def test_guest_in_a_split_is_participant_referenced(client, owner, add_guest):
    guest = add_guest()
    expense_naming(owner.gid, owner.pid, guest).save()
    reply = client.delete(f"/groups/{owner.gid}/participants/{guest}", headers=owner.headers)
    assert error_code(reply) == "PARTICIPANT_REFERENCED"


@pytest.mark.parametrize("side", ["PayerId", "PayeeId"])
def test_guest_in_a_settlement_is_participant_referenced(client, owner, add_guest, side):
    guest = add_guest()
    sides = {"PayerId": owner.pid, "PayeeId": owner.pid, side: guest}
    Settlement(owner.gid, Settlement.sort_key("2026-01-01T00:00:00.000Z", "s1"),
               SettlementId="s1", Amount=5, **sides).save()
    reply = client.delete(f"/groups/{owner.gid}/participants/{guest}", headers=owner.headers)
    assert error_code(reply) == "PARTICIPANT_REFERENCED"


def test_guest_in_a_recurring_template_is_participant_referenced(client, owner, add_guest):
    guest = add_guest()
    template = ExpenseTemplateMap(
        Description="Rent", Amount=100, Payments=[PaymentMap(ParticipantId=owner.pid, Amount=100)],
        Items=[ItemMap(Name="Rent", Amount=100, SplitMode="EQUAL",
                       Splits=[SplitMap(ParticipantId=guest, Value=1, Amount=100)])])
    RecurringExpense(owner.gid, RecurringExpense.sort_key("r1"), RecurringId="r1",
                     Template=template, Frequency="MONTHLY", StartDate="2026-01-01").save()
    reply = client.delete(f"/groups/{owner.gid}/participants/{guest}", headers=owner.headers)
    assert error_code(reply) == "PARTICIPANT_REFERENCED"


def test_reference_check_pages_past_pages_emptied_by_the_filter(owner, add_guest):
    guest = add_guest()
    # Comments share the EXPENSE# prefix and sort before the later expense: with a page of
    # two rows, the first pages hold only filtered-out comments.
    for i in range(6):
        Comment(owner.gid, Comment.sort_key("a" * 8, f"2026-01-01T00:00:0{i}.000Z", f"c{i}"),
                CommentId=f"c{i}", AuthorUserId="u", Body="x", AuthorParticipantId=guest).save()
    expense_naming(owner.gid, guest, owner.pid, expense_id="b" * 8).save()
    assert participants.is_referenced(owner.gid, guest, page_size=2)
    assert not participants.is_referenced(owner.gid, "someone-else", page_size=2)


def test_a_comment_by_a_guest_does_not_block_removal(client, owner, add_guest):
    guest = add_guest()
    Comment(owner.gid, Comment.sort_key("a" * 8, "2026-01-01T00:00:00.000Z", "c"),
            CommentId="c", AuthorUserId="u", Body="x", AuthorParticipantId=guest).save()
    assert client.delete(f"/groups/{owner.gid}/participants/{guest}",
                         headers=owner.headers).status_code == 204


def test_money_landing_during_removal_makes_it_retry_not_dangle(owner, add_guest, monkeypatch):
    guest = add_guest()
    real = participants.is_referenced

    def expense_lands_after_the_check(gid, pid, **kwargs):
        answer = real(gid, pid, **kwargs)
        expense_naming(gid, pid, owner.pid).save()
        record_money(gid, expenses=1)  # what every money write does in its transaction
        return answer

    monkeypatch.setattr(participants, "is_referenced", expense_lands_after_the_check)
    with pytest.raises(Conflict) as caught:
        participants.remove_participant(authorize(owner.user_id, owner.gid), guest)
    assert caught.value.code == "CONCURRENT_UPDATE"
    assert participant(owner.gid, guest)


def test_removing_a_guest_cancels_pending_takeovers_of_it(client, owner, add_guest, sign_in,
                                                          submit):
    guest, other = add_guest("Gus"), add_guest("Other")
    headers, user_id = sign_in("tess@example.com")
    headers2, _ = sign_in("ned@example.com")
    takeover = submit(headers, mode="TAKEOVER", targetParticipantId=guest).get_json()
    unrelated = submit(headers2, mode="TAKEOVER", targetParticipantId=other).get_json()
    assert client.delete(f"/groups/{owner.gid}/participants/{guest}",
                         headers=owner.headers).status_code == 204
    row = JoinRequest.get(owner.gid, JoinRequest.sort_key(takeover["requestId"]))
    assert row.Status == "CANCELLED" and row.PendingKey is None and row.UserPendingKey is None
    with pytest.raises(JoinLock.DoesNotExist):
        JoinLock.get(owner.gid, JoinLock.sort_key(user_id))
    pending = client.get(f"/groups/{owner.gid}/join-requests", headers=owner.headers).get_json()
    assert [r["requestId"] for r in pending["items"]] == [unrelated["requestId"]]
    assert submit(headers).status_code == 201  # the lock was released


def test_cascade_skips_a_request_an_owner_decided_meanwhile(owner, add_guest, sign_in, submit,
                                                            monkeypatch):
    from app.groups import join_requests
    guest = add_guest()
    headers, _ = sign_in("tess@example.com")
    request = submit(headers, mode="TAKEOVER", targetParticipantId=guest).get_json()
    stale = list(JoinRequest.pending_for_group(owner.gid))
    join_requests.deny_join_request(authorize(owner.user_id, owner.gid), request["requestId"])
    # The index still showed it pending (eventual consistency): the pass must not fail.
    monkeypatch.setattr(JoinRequest, "pending_for_group", classmethod(lambda cls, *a, **k: stale))
    assert join_requests.cancel_takeovers_of(owner.gid, guest) == 0
    assert JoinRequest.get(owner.gid, JoinRequest.sort_key(request["requestId"])).Status == "DENIED"


def test_member_may_not_remove_participants(client, owner, join, add_guest):
    member = join("mia@example.com")
    assert client.delete(f"/groups/{owner.gid}/participants/{add_guest()}",
                         headers=member.headers).status_code == 403


def test_removing_unknown_participant_is_not_found(client, owner):
    missing = "00000000-0000-4000-8000-000000000000"
    assert client.delete(f"/groups/{owner.gid}/participants/{missing}",
                         headers=owner.headers).status_code == 404


def test_participant_mid_transfer_cannot_be_removed(client, owner, add_guest):
    from models.groups import Participant
    guest = add_guest()
    Participant(owner.gid, Participant.sort_key(guest)).update(
        actions=[Participant.TransferTarget.set(owner.pid)])
    reply = client.delete(f"/groups/{owner.gid}/participants/{guest}", headers=owner.headers)
    assert reply.status_code == 409
    assert error_code(reply) == "TRANSFER_IN_PROGRESS"


# --- leave ---------------------------------------------------------------------------------

def test_member_leaves_group(client, owner, join):
    member = join("mia@example.com")
    assert client.post(f"/groups/{owner.gid}/leave", headers=member.headers).status_code == 204
    assert client.get(f"/groups/{owner.gid}", headers=member.headers).status_code == 404
    roster = client.get(f"/groups/{owner.gid}/participants", headers=owner.headers).get_json()
    assert member.pid not in [p["participantId"] for p in roster["items"]]


def test_viewer_may_leave(client, owner, join):
    viewer = join("vic@example.com", role="VIEWER")
    assert client.post(f"/groups/{owner.gid}/leave", headers=viewer.headers).status_code == 204


def test_sole_owner_leaving_is_last_owner(client, owner):
    reply = client.post(f"/groups/{owner.gid}/leave", headers=owner.headers)
    assert reply.status_code == 409
    assert error_code(reply) == "LAST_OWNER"


def test_owner_leaves_when_another_owner_remains(client, owner, join):
    member = join("mia@example.com")
    patch(client, owner, member.pid, {"role": "OWNER"})
    assert client.post(f"/groups/{owner.gid}/leave", headers=owner.headers).status_code == 204
    assert owner_count(owner.gid) == 1


def test_leaving_while_named_in_an_expense_is_participant_referenced(client, owner, join):
    member = join("mia@example.com")
    expense_naming(owner.gid, member.pid, owner.pid).save()
    reply = client.post(f"/groups/{owner.gid}/leave", headers=member.headers)
    assert error_code(reply) == "PARTICIPANT_REFERENCED"


def test_non_member_leaving_is_not_found(client, owner, sign_in):
    headers, _ = sign_in("stranger@example.com")
    assert client.post(f"/groups/{owner.gid}/leave", headers=headers).status_code == 404
