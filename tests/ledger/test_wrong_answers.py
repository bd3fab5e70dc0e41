"""Answers that used to be wrong: a lost edit reported as saved, a contradictory PATCH
accepted, a write by someone who lost access between the role check and the commit, and an
idempotent replay handed to a caller who no longer has access.

Interleavings are made deterministic with a botocore hook (tests.support.interleave): the
request under test reads and authorizes as usual, then the competing change commits right
before its TransactWriteItems leaves."""
from __future__ import annotations

import pytest

from app.errors import NotFound
from app.core.access import authorize
from app.groups import participants
from app.ledger import expense_delete, expenses, settlements
from app.money.settlement_input import SettlementInput
from models.groups import Expense, GroupItem
from tests.ledger.helpers import assert_balance_matches_rows, equal_body, join_directly
from tests.support.interleave import just_before
from tests.support.expense_requests import as_edit

TX = "TransactWriteItems"


def _owner(group):
    return authorize(group.user_id, group.group_id, "MEMBER")


# --- 1. a lost concurrent edit is VERSION_CONFLICT with the current version ---------------

def test_edit_that_loses_to_a_concurrent_edit_is_version_conflict_not_duplicate_event(group):
    expense = group.add_expense(900)
    path = f"/expenses/{expense['expenseId']}"
    winner = lambda: expenses.update_expense(_owner(group), expense["expenseId"], 1,  # noqa: E731
                                             as_edit({"description": "Winner"}))
    with just_before(TX, winner):
        reply = group.patch(path, {"version": 1, "description": "Loser"})
    assert reply.status_code == 409, reply.get_json()
    error = reply.get_json()["error"]
    assert error["code"] == "VERSION_CONFLICT"
    assert error["details"] == {"currentVersion": 2}
    stored = group.get(path).get_json()
    assert (stored["description"], stored["version"]) == ("Winner", 2)
    assert_balance_matches_rows(group.group_id)


def test_a_stale_version_read_up_front_also_carries_the_current_version(group):
    expense = group.add_expense(900)
    path = f"/expenses/{expense['expenseId']}"
    assert group.patch(path, {"version": 1, "description": "Two"}).status_code == 200
    error = group.patch(path, {"version": 1, "description": "Stale"}).get_json()["error"]
    assert (error["code"], error["details"]) == ("VERSION_CONFLICT", {"currentVersion": 2})


def test_edit_of_an_expense_deleted_meanwhile_is_not_found(group):
    expense = group.add_expense(900)
    deleter = lambda: expense_delete.delete_expense(_owner(group),  # noqa: E731
                                                    expense["expenseId"])
    with just_before(TX, deleter):
        with pytest.raises(NotFound):
            expenses.update_expense(_owner(group), expense["expenseId"], 1,
                                    as_edit({"description": "Too late"}))


def test_settlement_edit_that_loses_a_race_reports_the_current_version(group):
    created = group.post("/settlements", {"payerId": group.guests[0], "payeeId": group.me,
                                          "amount": 300}).get_json()
    path = f"/settlements/{created['settlementId']}"
    winner = lambda: settlements.update_settlement(_owner(group),  # noqa: E731
                                                   created["settlementId"], 1, SettlementInput.of(amount=400))
    with just_before(TX, winner):
        reply = group.patch(path, {"version": 1, "amount": 500})
    error = reply.get_json()["error"]
    assert (reply.status_code, error["code"], error["details"]) == (
        409, "VERSION_CONFLICT", {"currentVersion": 2})
    assert group.get(path).get_json()["amount"] == 400
    stale = group.patch(path, {"version": 1, "amount": 600}).get_json()["error"]
    assert stale["details"] == {"currentVersion": 2}
    assert_balance_matches_rows(group.group_id)


# --- 2. PATCH judges items + amount exactly as POST does -----------------------------------

def _itemised(group, amount_field: int) -> dict:
    return {"description": "Groceries", "amount": amount_field,
            "payments": [{"participantId": group.me, "amount": 1000}],
            "items": [{"name": "Food", "amount": 1000, "splitMode": "EQUAL",
                       "splits": [{"participantId": pid} for pid in group.everyone]}]}


def test_patch_with_items_and_a_contradicting_amount_is_400_like_post(group):
    assert group.post("/expenses", _itemised(group, 999)).status_code == 400
    expense = group.add_expense(900)
    path = f"/expenses/{expense['expenseId']}"
    reply = group.patch(path, {"version": 1, **_itemised(group, 999)})
    assert reply.status_code == 400, reply.get_json()
    assert "amount" in reply.get_json()["error"]["details"]
    assert group.get(path).get_json()["amount"] == 900  # nothing changed
    agreeing = group.patch(path, {"version": 1, **_itemised(group, 1000)})
    assert agreeing.status_code == 200, agreeing.get_json()
    assert agreeing.get_json()["amount"] == 1000


# --- 3. losing access between authorization and commit -------------------------------------

@pytest.fixture
def member(group, sign_in):
    """A MEMBER user of the group: (headers, user id, participant id)."""
    headers, user_id = sign_in("member@example.com")
    return headers, user_id, join_directly(group.group_id, user_id, "MEMBER")


def _demote(group, participant_id):
    return lambda: participants.update_participant(
        authorize(group.user_id, group.group_id, "OWNER"), participant_id, role="VIEWER")


def _remove(group, participant_id):
    return lambda: participants.remove_participant(
        authorize(group.user_id, group.group_id, "OWNER"), participant_id)


def _expense_heads(group_id: str) -> list:
    return [row for row in GroupItem.query(group_id) if isinstance(row, Expense)]


def test_member_demoted_after_authorization_cannot_land_an_expense(group, member):
    headers, _, pid = member
    with just_before(TX, _demote(group, pid)):
        reply = group.post("/expenses", equal_body(group.me, 900, group.everyone), headers)
    assert reply.status_code == 403, reply.get_json()
    assert _expense_heads(group.group_id) == []
    assert_balance_matches_rows(group.group_id)


def test_member_removed_after_authorization_cannot_land_an_expense(group, member):
    headers, _, pid = member
    with just_before(TX, _remove(group, pid)):
        reply = group.post("/expenses", equal_body(group.me, 900, group.everyone), headers)
    assert reply.status_code == 404, reply.get_json()
    assert _expense_heads(group.group_id) == []


def test_member_demoted_after_authorization_cannot_settle_edit_or_delete(group, member):
    headers, user_id, pid = member
    body = {"payerId": group.guests[0], "payeeId": group.me, "amount": 100}
    with just_before(TX, _demote(group, pid)):
        reply = group.post("/settlements", body, headers)
    assert reply.status_code == 403, reply.get_json()
    assert group.get("/settlements").get_json()["items"] == []

    participants.update_participant(authorize(group.user_id, group.group_id, "OWNER"), pid,
                                    role="MEMBER")
    expense = group.add_expense(900)
    access = authorize(user_id, group.group_id, "MEMBER")
    with just_before(TX, _demote(group, pid)):
        with pytest.raises(Exception) as edit:
            expenses.update_expense(access, expense["expenseId"], 1, as_edit({"description": "Mine"}))
    assert getattr(edit.value, "status", None) == 403
    participants.update_participant(authorize(group.user_id, group.group_id, "OWNER"), pid,
                                    role="MEMBER")
    access = authorize(user_id, group.group_id, "MEMBER")
    with just_before(TX, _demote(group, pid)):
        with pytest.raises(Exception) as delete:
            expense_delete.delete_expense(access, expense["expenseId"])
    assert getattr(delete.value, "status", None) == 403
    assert group.get(f"/expenses/{expense['expenseId']}").status_code == 200


def test_member_removed_after_authorization_cannot_comment(group, member):
    headers, _, pid = member
    expense = group.add_expense(900, among=[group.me, group.guests[0]])
    with just_before(TX, _remove(group, pid)):
        reply = group.post(f"/expenses/{expense['expenseId']}/comments", {"body": "hi"}, headers)
    assert reply.status_code == 404, reply.get_json()
    assert group.get(f"/expenses/{expense['expenseId']}").get_json()["comments"] == []


def test_member_demoted_after_authorization_cannot_add_a_guest(group, member):
    headers, _, pid = member
    before = len(group.get("/participants").get_json()["items"])
    with just_before(TX, _demote(group, pid)):
        reply = group.client.post(f"{group.base}/participants", json={"displayName": "X"},
                                  headers=headers)
    assert reply.status_code == 403, reply.get_json()
    assert len(group.get("/participants").get_json()["items"]) == before


def test_a_member_who_keeps_access_still_writes(group, member):
    headers, _, _ = member
    reply = group.post("/expenses", equal_body(group.me, 900, group.everyone), headers)
    assert reply.status_code == 201, reply.get_json()


# --- 4. authorize first, then replay --------------------------------------------------------

@pytest.mark.parametrize("lose, status", [("remove", 404), ("demote", 403)])
def test_idempotent_replay_is_refused_to_a_caller_who_lost_access(group, member, lose, status):
    headers, _, pid = member
    keyed = {**headers, "Idempotency-Key": f"replay-{lose}"}
    body = equal_body(group.me, 900, [group.me, group.guests[0]])
    first = group.post("/expenses", body, keyed)
    assert first.status_code == 201, first.get_json()
    again = group.post("/expenses", body, keyed)
    assert (again.status_code, again.headers.get("Idempotent-Replayed")) == (201, "true")
    (_remove if lose == "remove" else _demote)(group, pid)()
    refused = group.post("/expenses", body, keyed)
    assert refused.status_code == status, refused.get_json()
    assert refused.headers.get("Idempotent-Replayed") is None


def test_idempotent_comment_replay_is_refused_after_removal(group, member):
    headers, _, pid = member
    expense = group.add_expense(900, among=[group.me, group.guests[0]])
    keyed = {**headers, "Idempotency-Key": "comment-1"}
    path = f"/expenses/{expense['expenseId']}/comments"
    assert group.post(path, {"body": "hello"}, keyed).status_code == 201
    _remove(group, pid)()
    assert group.post(path, {"body": "hello"}, keyed).status_code == 404
