"""The projection's one-off backfill (app/insight/backfill.py): fills every group's rows
from state, resumable by its cursor, idempotent, and through the Projection handler's
canned event as an operator runs it (events/backfill_projection.json)."""
from __future__ import annotations

from app.core.access import authorize
from app.groups.groups import create_group
from app.insight import backfill
from app.ledger import expenses, settlements
from app.local.triggers import run_projection_backfill
from app.money.settlement_input import SettlementInput
from models.users import MyEntry
from models.users.keys import MINE_PREFIX
from tests.ledger.helpers import equal_body, join_directly, make_user
from tests.support import aws_calls
from tests.support.expense_requests import as_create
from tests.support.projection import settle_new

GROUPS = 5


def _rows(*users) -> dict:
    return {user: sorted((row.SK, row.GroupId, int(row.Paid), int(row.Owed), row.Kind)
                         for page in MyEntry.pages_of(user, 500) for row in page)
            for user in users}


def _wipe(*users) -> None:
    for user in users:
        for page in MyEntry.pages_of(user, 500):
            for row in page:
                row.delete()


def _world():
    """GROUPS groups shared by two accounts, each with money in it, settled by the stream."""
    me, bo = make_user("me@example.com"), make_user("bo@example.com")
    for n in range(GROUPS):
        access = authorize(me, create_group(me, name=f"G{n}", currency="EUR").group_id)
        them = join_directly(access.group_id, bo, "MEMBER", "Bo")
        expenses.create_expense(access, as_create(equal_body(
            access.participant_id, 100 + n, [access.participant_id, them],
            date=f"2026-01-{n + 1:02d}")))
        settlements.create_settlement(access, SettlementInput.of(
            payer_id=them, payee_id=access.participant_id, amount=10))
    settle_new()
    return me, bo


def test_a_backfill_from_nothing_equals_what_the_stream_built_and_resumes_by_cursor(aws):
    me, bo = _world()
    built = _rows(me, bo)
    assert all(len(rows) == 2 * GROUPS for rows in built.values())
    _wipe(me, bo)
    # A stale row of another key scheme (the projection's first, index-ordered keys).
    stale = MyEntry(me, f"{MINE_PREFIX}{built[me][0][1]}#EXPENSE#gone", GroupId=built[me][0][1],
                    ResourceKey="EXPENSE#gone#0#META", Kind="EXPENSE", Date="2026-01-01",
                    Currency="EUR", Version=1)
    stale.save()
    answers, cursor = [], None
    while True:  # one page of a few items per call: many calls, each resumed from the last
        answer = backfill.backfill(cursor, pages=1, page_size=7)
        answers.append(answer)
        if answer["done"]:
            break
        assert answer["cursor"] is not None
        cursor = answer["cursor"]
    assert len(answers) > 2 and sum(a["groups"] for a in answers) == GROUPS
    assert _rows(me, bo) == built


def test_a_second_backfill_writes_nothing(aws):
    me, bo = _world()
    built = _rows(me, bo)
    with aws_calls.recorded() as calls:
        assert backfill.backfill()["groups"] == GROUPS
    assert not {"PutItem", "DeleteItem", "BatchWriteItem"} & set(calls), calls
    assert _rows(me, bo) == built


def test_the_handler_runs_the_backfill_on_its_canned_event(aws):
    me, bo = _world()
    built = _rows(me, bo)
    _wipe(me, bo)
    seen = []
    assert run_projection_backfill(seen.append) == {"groups": GROUPS, "done": True}
    assert seen and seen[-1]["done"] and _rows(me, bo) == built


def test_a_group_written_during_its_sync_is_synced_again(aws):
    me, bo = _world()
    access = authorize(me, next(iter({r[1] for r in _rows(me)[me]})))
    _wipe(me, bo)
    wrote = []

    def another_writer(operation, params):
        # The sync has read the group's rows and reads an account's: an expense lands.
        if operation == "Query" and params["TableName"].endswith("users") and not wrote:
            wrote.append("started")  # its own calls pass here too
            expenses.create_expense(access, as_create(equal_body(
                access.participant_id, 5, [access.participant_id])))

    with aws_calls.watched(before=another_writer):
        assert backfill.backfill_group(access.group_id) == 2
    assert wrote and any(row[0].endswith(access.group_id) and row[2] == 5
                         for row in _rows(me)[me])
