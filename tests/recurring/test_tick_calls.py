"""The tick's DynamoDB calls per occurrence: its claim (UpdateItem) and its TransactWrite.

An occurrence creates an expense, so its TransactWrite moves the group's revision and puts
the CHANGE rows numbered from it, like an API create. The revision expected is the head the
tick read for the bucket's templates (one BatchGetItem per 100), never a GetItem per slot;
a head another writer moved in between is renumbered by the commit, so the log stays
gap-free and each CHANGE row carries the head's revision."""
from __future__ import annotations

from collections import Counter

import pytest

from app.core.access import authorize
from app.ledger import expenses
from app.recurring import templates
from app.recurring.tick import run_bucket
from models.groups import Change, Group, RecurringExpense
from tests.ledger.helpers import equal_body, make_group, make_user
from tests.recurring.helpers import as_request, recorded, template_body
from tests.support import aws_calls, interleave
from tests.support.expense_requests import as_create

NOW = "2026-03-31T12:00:00Z"  # 3 slots of the first template, 1 of the second; no reminder


@pytest.fixture
def group(aws):
    access, ids = make_group(make_user("calls@example.com"), guests=2)
    templates.create_template(access, as_request(template_body(ids[0], 3000, ids, start="2026-01-31")))
    templates.create_template(access, as_request(template_body(ids[1], 900, ids, start="2026-03-15")))
    return access, ids


def _revision(group_id: str) -> int:
    return int(Group.get(*Group.key(group_id), consistent_read=True).Revision)


def _log(group_id: str) -> list:
    return list(Change.after(group_id, 0, consistent_read=True))


def test_each_slot_is_a_claim_and_one_transact_write_with_no_head_read_of_its_own(group):
    access, _ = group
    before = _revision(access.group_id)
    with aws_calls.recorded() as calls:
        result = run_bucket(RecurringExpense.bucket_of(access.group_id), NOW)
    assert result["created"] == 4
    # The due Query, the heads, a claim and a commit per slot (the second template finds
    # the head the first one's commits moved: no renumbering), the reminders' Query.
    assert Counter(calls) == {"Query": 2, "BatchGetItem": 1, "UpdateItem": 4,
                              "TransactWriteItems": 4}
    log = _log(access.group_id)
    assert _revision(access.group_id) == before + 8  # the expense and its template, a slot
    assert [int(c.Revision) for c in log] == list(range(1, before + 9))
    assert {e.ExpenseId for e in recorded(access.group_id)} <= {c.ResourceId for c in log}


def test_a_head_moved_after_the_tick_read_it_is_renumbered_gap_free(group):
    access, ids = group
    before = _revision(access.group_id)
    other = []

    def another_writer():
        fresh = authorize(access.user_id, access.group_id, "MEMBER")
        other.append(expenses.create_expense(fresh, as_create(equal_body(ids[2], 600, ids))).ExpenseId)

    with aws_calls.recorded() as calls, \
            interleave.just_before("TransactWriteItems", another_writer):
        result = run_bucket(RecurringExpense.bucket_of(access.group_id), NOW)
    assert result["created"] == 4
    # the other writer's, one per slot, and the first slot's resend, renumbered
    assert calls.count("TransactWriteItems") == 1 + 4 + 1
    log = _log(access.group_id)
    assert _revision(access.group_id) == before + 9
    assert [int(c.Revision) for c in log] == list(range(1, before + 10))
    # The other writer took the revision the tick had read; the occurrences follow it.
    assert log[before].ResourceId == other[0]
    assert {c.ResourceId for c in log[before + 1:]} >= {e.ExpenseId
                                                        for e in recorded(access.group_id)}
