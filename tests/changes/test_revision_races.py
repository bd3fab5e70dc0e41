"""Revisions under concurrent writers: real threads against the serialized embedded endpoint.

Each round releases several writers of one group together, every one holding an Access read
before the round (so all but the first to commit find the revision taken and renumber).
Afterwards the group's change log runs 1..Revision with no gap and no number twice, the
revision rose by exactly the number of writes that succeeded, and each write's row names
its own resource."""
from __future__ import annotations

import pytest

from app.core.access import authorize
from app.groups import participants
from app.ledger import comments, expenses, settlements
from app.money.settlement_input import SettlementInput
from models.groups import Change, Group
from tests.groups.test_races import codes, race
from tests.ledger.helpers import equal_body, make_group, make_user
from tests.support.expense_requests import as_create

pytestmark = pytest.mark.race
ROUNDS = 4


def test_concurrent_writers_leave_a_gap_free_strictly_increasing_log(live_db):
    user = make_user("racer@example.com")
    access, ids = make_group(user, guests=2)
    gid = access.group_id
    expense = expenses.create_expense(access, as_create(equal_body(ids[0], 900, ids)))
    for _ in range(ROUNDS):
        stale = authorize(user, gid, "MEMBER")
        before = int(stale.group.Revision)
        outcomes = race(
            lambda: expenses.create_expense(stale, as_create(equal_body(ids[1], 300, ids))),
            lambda: comments.add_comment(stale, expense.ExpenseId, "race"),
            lambda: settlements.create_settlement(stale, SettlementInput.of(payer_id=ids[1], payee_id=ids[0],
                                                  amount=100)),
            lambda: participants.add_guest(stale, display_name="Late"))
        assert codes(outcomes) == []
        head = Group.get(*Group.key(gid), consistent_read=True)
        assert int(head.Revision) == before + len(outcomes)
        log = list(Change.after(gid, 0, consistent_read=True))
        assert [int(c.Revision) for c in log] == list(range(1, int(head.Revision) + 1))
        written = {c.ResourceId for c in log[before:]}
        assert written == {outcomes[0].ExpenseId, outcomes[1].CommentId,
                           outcomes[2].SettlementId, outcomes[3].ParticipantId}
