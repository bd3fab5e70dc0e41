"""A comment vouches for its author through the roster (issue 50 cost pass): one consistent
roster Query after the head that authorized it, and the change log's update of that head
conditioned on the roster version read, instead of a ConditionCheck of the guard row (2
write units a comment). A removal landing just before the comment's TransactWrite leaves
no comment; a guest added there does not fail it (the write is resent on the new
version); a viewer still comments."""
from __future__ import annotations

import pytest

from app.core.access import authorize
from app.errors import DomainError
from app.groups import participants
from app.ledger import comments, expenses
from models.groups import Comment, Group
from tests.ledger.helpers import equal_body, join_directly, make_group, make_user
from tests.support import aws_calls, interleave
from tests.support.expense_requests import as_create

pytestmark = pytest.mark.race


def _world(tag: str, role: str = "MEMBER"):
    owner = make_user(f"owner-{tag}@example.com")
    access, ids = make_group(owner, guests=1)
    member = make_user(f"member-{tag}@example.com")
    member_pid = join_directly(access.group_id, member, role, "Mo")
    owner_access = authorize(owner, access.group_id, "MEMBER")
    expense = expenses.create_expense(owner_access,
                                      as_create(equal_body(ids[0], 900, ids)))
    return owner, member, member_pid, access.group_id, expense.ExpenseId


def _comments(group_id: str, expense_id: str) -> list:
    return list(Comment.query(group_id, Comment.SK.startswith(
        comments.comments_prefix(expense_id)), consistent_read=True))


def test_a_comment_by_someone_removed_just_before_its_commit_is_refused(live_db):
    owner, member, member_pid, group_id, expense_id = _world("gone")
    mine = authorize(member, group_id, "VIEWER")

    def remove_member():
        participants.remove_participant(authorize(owner, group_id, "OWNER"), member_pid)

    with interleave.just_before("TransactWriteItems", remove_member):
        with pytest.raises(DomainError) as refused:
            comments.add_comment(mine, expense_id, "sneaking in")
    assert refused.value.status in (403, 404)
    assert _comments(group_id, expense_id) == []


def test_a_guest_added_just_before_the_commit_does_not_fail_a_comment(live_db):
    owner, member, _, group_id, expense_id = _world("guest")
    mine = authorize(member, group_id, "VIEWER")
    version = Group.get(*Group.key(group_id)).RosterVersion

    def add_guest():
        participants.add_guest(authorize(owner, group_id, "OWNER"), display_name="Late")

    with interleave.just_before("TransactWriteItems", add_guest):
        comment = comments.add_comment(mine, expense_id, "still here")
    assert [row.CommentId for row in _comments(group_id, expense_id)] == [comment.CommentId]
    assert Group.get(*Group.key(group_id)).RosterVersion == version + 1


def test_a_viewer_comments_with_no_condition_check_in_the_transaction(live_db):
    _, viewer, _, group_id, expense_id = _world("viewer", role="VIEWER")
    mine = authorize(viewer, group_id, "VIEWER")
    with aws_calls.requests_made() as calls:
        comments.add_comment(mine, expense_id, "looks right")
    [write] = [params for operation, params in calls if operation == "TransactWriteItems"]
    assert [next(iter(item)) for item in write["TransactItems"]].count("ConditionCheck") == 0
    assert [operation for operation, _ in calls].count("Query") == 1  # the roster
    assert len(_comments(group_id, expense_id)) == 1
