"""Expense delete: the head, every comment, the balance delta and the event, rerunnable."""
from __future__ import annotations

import pytest

from models import base as model_base
from models import pynamodb_adapter
from app.ledger import expense_delete
from app.core.access import authorize
from models.groups import Comment, GroupItem
from models.notifications import Event
from tests.ledger.helpers import assert_balance_matches_rows, stored_nets


def seed_comments(group_id: str, expense_id: str, count: int, *, author: str) -> None:
    """Write ``count`` comment rows straight to the table (fast setup for long threads)."""
    with Comment.batch_write() as batch:
        for index in range(count):
            created = f"2026-01-01T00:00:00.{index:03d}Z" if index < 1000 else \
                f"2026-01-01T00:{index // 1000:02d}:00.{index % 1000:03d}Z"
            batch.save(Comment(group_id, Comment.sort_key(expense_id, created, f"c{index:05d}"),
                               CommentId=f"c{index:05d}", AuthorUserId=author,
                               Body=f"comment {index:05d}", CreatedAt=created))


def _thread_rows(group_id: str, expense_id: str) -> list:
    return list(GroupItem.query(group_id, GroupItem.SK.startswith(f"EXPENSE#{expense_id}#")))


def test_small_thread_is_deleted_in_one_transaction_with_the_balance_and_event(group):
    expense = group.add_expense(900)
    for text in ("a", "b"):
        group.post(f"/expenses/{expense['expenseId']}/comments", {"body": text})
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert _thread_rows(group.group_id, expense["expenseId"]) == []
    assert stored_nets(group.group_id) == {}
    assert_balance_matches_rows(group.group_id)
    assert Event.get(*Event.key(f"EXPENSE_DELETED#{group.group_id}#{expense['expenseId']}#1"))
    assert group.get(f"/expenses/{expense['expenseId']}").status_code == 404
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 404


def test_a_thread_that_just_fits_the_final_transaction_is_deleted_in_it(group):
    """The final transaction at its fullest: every item it holds (the caller's member and
    live-account checks included) within DynamoDB's 100."""
    expense = group.add_expense(900)
    seed_comments(group.group_id, expense["expenseId"], expense_delete.FINAL_COMMENTS,
                  author=group.user_id)
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert _thread_rows(group.group_id, expense["expenseId"]) == []
    assert_balance_matches_rows(group.group_id)


@pytest.mark.slow
def test_a_thread_of_3000_comments_is_deleted_completely(group):
    expense = group.add_expense(900)
    seed_comments(group.group_id, expense["expenseId"], 3000, author=group.user_id)
    assert len(_thread_rows(group.group_id, expense["expenseId"])) == 3001
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert _thread_rows(group.group_id, expense["expenseId"]) == []
    assert_balance_matches_rows(group.group_id)


def test_unprocessed_batch_items_are_retried_until_empty(group, monkeypatch):
    expense = group.add_expense(900)
    seed_comments(group.group_id, expense["expenseId"], 120, author=group.user_id)
    connection = pynamodb_adapter.table_connection(GroupItem)
    real = connection.batch_write_item
    calls = []

    def throttled(delete_items=None, **kwargs):
        calls.append(len(delete_items))
        if len(calls) % 2:  # every other call DynamoDB "throttles" all but the first key
            real(delete_items=delete_items[:1])
            return {"UnprocessedItems": {GroupItem.Meta.table_name: [
                {"DeleteRequest": {"Key": key}} for key in delete_items[1:]]}}
        return real(delete_items=delete_items, **kwargs)

    monkeypatch.setattr(connection, "batch_write_item", throttled)
    monkeypatch.setattr(model_base.time, "sleep", lambda _: None)
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert _thread_rows(group.group_id, expense["expenseId"]) == []
    assert any(size < 25 for size in calls)  # the leftovers were sent again


def test_a_crash_mid_sweep_leaves_a_live_head_with_correct_balances_and_a_rerun_finishes(
        group, monkeypatch):
    expense = group.add_expense(900)
    seed_comments(group.group_id, expense["expenseId"], 700, author=group.user_id)
    before = stored_nets(group.group_id)
    real = expense_delete.batch_delete
    state = {"calls": 0}

    def crash_after_first_page(keys):
        state["calls"] += 1
        if state["calls"] > 1:
            raise RuntimeError("Lambda timed out")
        real(keys)

    monkeypatch.setattr(expense_delete, "batch_delete", crash_after_first_page)
    with pytest.raises(RuntimeError):
        expense_delete.delete_expense(authorize(group.user_id, group.group_id), expense["expenseId"])
    rows = _thread_rows(group.group_id, expense["expenseId"])
    assert 0 < len(rows) < 701 and rows[0].SK.endswith("#0#META")
    assert stored_nets(group.group_id) == before
    monkeypatch.setattr(expense_delete, "batch_delete", real)
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert _thread_rows(group.group_id, expense["expenseId"]) == []
    assert_balance_matches_rows(group.group_id)


def _after_first_sweep(monkeypatch, action) -> dict:
    """Run ``action(expense_id)`` once, between the comment sweep and the final transaction."""
    real = expense_delete._sweep
    state = {"ran": False}

    def sweep_then_act(group_id, expense_id):
        rest = real(group_id, expense_id)
        if not state["ran"]:
            state["ran"] = True
            action(expense_id)
        return rest

    monkeypatch.setattr(expense_delete, "_sweep", sweep_then_act)
    return state


def test_a_comment_added_during_the_delete_is_deleted_too(group, monkeypatch):
    expense = group.add_expense(900)
    state = _after_first_sweep(monkeypatch, lambda eid: group.post(
        f"/expenses/{eid}/comments", {"body": "late"}))
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert state["ran"]
    assert _thread_rows(group.group_id, expense["expenseId"]) == []


def test_an_edit_during_the_delete_is_not_lost_from_the_balance(group, monkeypatch):
    expense = group.add_expense(900)

    def edit(eid):
        assert group.patch(f"/expenses/{eid}", {
            "version": 1, "amount": 600,
            "payments": [{"participantId": group.guests[0], "amount": 600}]}).status_code == 200

    state = _after_first_sweep(monkeypatch, edit)
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert state["ran"]
    assert stored_nets(group.group_id) == {}
    assert_balance_matches_rows(group.group_id)
