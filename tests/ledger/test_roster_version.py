"""The roster version (issue 33 lever 3): a money write reads the participants it names
after the head that authorized it and conditions its head update on the head's
RosterVersion, instead of one ConditionCheck per participant. A roster change landing
between that read and the commit (here: inside the write's own ``also`` hook, the last
thing before the commit) must fail a write naming the participant it touched, and must not
fail one naming only participants that still stand."""
from __future__ import annotations

import pytest

from app.errors import Conflict
from app.core.access import authorize
from app.groups import participants
from app.ledger import expenses
from models.groups import Expense, Group
from tests.ledger.helpers import (assert_balance_matches_rows, equal_body, make_group,
                                  make_user, stored_nets)
from tests.support.expense_requests import as_create

pytestmark = pytest.mark.race


def _fresh(owner: str, group_id: str):
    return authorize(owner, group_id, "MEMBER")


def _expenses(group_id: str) -> list:
    return [row for row in Expense.listing(group_id, None, None, limit=100)]


def test_an_expense_naming_a_guest_removed_before_its_commit_fails(live_db):
    owner = make_user("roster-a@example.com")
    access, ids = make_group(owner, guests=2)
    access = _fresh(owner, access.group_id)
    before = stored_nets(access.group_id)

    def remove_guest(_tx, _expense):  # commits between the write's reads and its commit
        participants.remove_participant(_fresh(owner, access.group_id), ids[2])

    with pytest.raises(Conflict) as refused:
        expenses.create_expense(access, as_create(equal_body(ids[0], 900, ids)), also=remove_guest)
    assert refused.value.code == "PARTICIPANT_UNAVAILABLE"
    assert refused.value.details == {"participantId": ids[2]}
    assert _expenses(access.group_id) == []
    assert stored_nets(access.group_id) == before
    assert_balance_matches_rows(access.group_id)


def test_a_guest_added_meanwhile_does_not_fail_an_expense_naming_others(live_db):
    owner = make_user("roster-b@example.com")
    access, ids = make_group(owner, guests=2)
    access = _fresh(owner, access.group_id)
    version = Group.get(*Group.key(access.group_id)).RosterVersion

    def add_guest(_tx, _expense):
        participants.add_guest(_fresh(owner, access.group_id), display_name="Late")

    expense = expenses.create_expense(access, as_create(equal_body(ids[0], 900, ids)), also=add_guest)
    assert [row.ExpenseId for row in _expenses(access.group_id)] == [expense.ExpenseId]
    assert Group.get(*Group.key(access.group_id)).RosterVersion == version + 1
    assert_balance_matches_rows(access.group_id)


def test_an_expense_naming_a_removed_guest_is_refused_before_any_write(live_db):
    owner = make_user("roster-c@example.com")
    access, ids = make_group(owner, guests=2)
    stale = _fresh(owner, access.group_id)
    participants.remove_participant(_fresh(owner, access.group_id), ids[1])
    with pytest.raises(Conflict) as refused:
        expenses.create_expense(stale, as_create(equal_body(ids[0], 900, ids)))
    assert refused.value.code == "PARTICIPANT_UNAVAILABLE"
    assert _expenses(access.group_id) == []


def test_every_roster_change_moves_the_version(live_db):
    owner = make_user("roster-d@example.com")
    access, ids = make_group(owner, guests=0)

    def version():
        return Group.get(*Group.key(access.group_id)).RosterVersion or 0

    start = version()
    guest = participants.add_guest(_fresh(owner, access.group_id), display_name="G")
    assert version() == start + 1
    participants.remove_participant(_fresh(owner, access.group_id), guest.ParticipantId)
    assert version() == start + 2
    expenses.create_expense(_fresh(owner, access.group_id), as_create(equal_body(ids[0], 100, ids)))
    assert version() == start + 2  # money moves nothing on the roster
