"""Expense delete: the head to the trash, its balance delta and the event in one transaction;
its comments stay for a restore (tests/ledger/test_trash.py) and go with the purge."""
from __future__ import annotations

import json

from app.ledger import expense_delete
from models.groups import Comment, Expense, GroupItem, Trashed
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


def test_a_delete_moves_the_head_to_the_trash_with_the_balance_and_event(group):
    expense = group.add_expense(900)
    for text in ("a", "b"):
        group.post(f"/expenses/{expense['expenseId']}/comments", {"body": text})
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    rows = _thread_rows(group.group_id, expense["expenseId"])
    assert [type(row) for row in rows] == [Comment, Comment]  # kept for a restore
    trashed = Trashed.get(group.group_id, Trashed.sort_key(expense["expenseId"]))
    image = GroupItem.from_raw_data(json.loads(trashed.Snapshot))
    assert isinstance(image, Expense) and int(image.CommentSeq) == 2
    assert stored_nets(group.group_id) == {}
    assert_balance_matches_rows(group.group_id)
    assert Event.get(*Event.key(f"EXPENSE_DELETED#{group.group_id}#{expense['expenseId']}#1"))
    assert group.get(f"/expenses/{expense['expenseId']}").status_code == 404
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 404


def test_a_long_thread_costs_the_delete_nothing(group):
    """No comment is touched by the delete, however many: one transaction whatever the
    thread (the purge and the orphan sweep delete them, page by page, later)."""
    expense = group.add_expense(900)
    seed_comments(group.group_id, expense["expenseId"], 300, author=group.user_id)
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert len(_thread_rows(group.group_id, expense["expenseId"])) == 300
    assert group.post(f"/trash/{expense['expenseId']}/restore", {}).status_code == 200
    assert len(_thread_rows(group.group_id, expense["expenseId"])) == 301
    assert_balance_matches_rows(group.group_id)


def _before_final(monkeypatch, action) -> dict:
    """Run ``action(expense_id)`` once, between reading the head and the transaction."""
    real = expense_delete._final
    state = {"ran": False}

    def act_then_final(access, head, counter, *fair):
        if not state["ran"]:
            state["ran"] = True
            action(head.ExpenseId)
        return real(access, head, counter, *fair)

    monkeypatch.setattr(expense_delete, "_final", act_then_final)
    return state


def test_a_comment_added_during_the_delete_comes_back_with_a_restore(group, monkeypatch):
    expense = group.add_expense(900)
    state = _before_final(monkeypatch, lambda eid: group.post(
        f"/expenses/{eid}/comments", {"body": "late"}))
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert state["ran"]
    group.post(f"/trash/{expense['expenseId']}/restore", {})
    detail = group.get(f"/expenses/{expense['expenseId']}").get_json()
    assert [c["body"] for c in detail["comments"]] == ["late"]


def test_an_edit_during_the_delete_is_not_lost_from_the_balance(group, monkeypatch):
    expense = group.add_expense(900)

    def edit(eid):
        assert group.patch(f"/expenses/{eid}", {
            "version": 1, "amount": 600,
            "payments": [{"participantId": group.guests[0], "amount": 600}]}).status_code == 200

    state = _before_final(monkeypatch, edit)
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    assert state["ran"]
    assert stored_nets(group.group_id) == {}
    assert_balance_matches_rows(group.group_id)
    restored = group.post(f"/trash/{expense['expenseId']}/restore", {}).get_json()
    assert restored["expense"]["amount"] == 600 and restored["expense"]["version"] == 3
    assert_balance_matches_rows(group.group_id)
