"""Races behind the wrong answers, with real threads against the serialized embedded endpoint:
the loser of two edits of one version hears VERSION_CONFLICT (never DUPLICATE_EVENT), a
group never holds more than MAX_GROUP_PARTICIPANTS however many adds race, and nobody
demoted lands an expense after the demotion committed."""
from __future__ import annotations

import pytest

from app.errors import Conflict, DomainError
from app.limits import MAX_GROUP_PARTICIPANTS
from app.core.access import authorize
from app.groups import participants
from app.ledger import expenses, settlements
from app.money.settlement_input import SettlementInput
from models.groups import Group
from tests.ledger.helpers import (assert_balance_matches_rows, equal_body, join_directly,
                                  make_group, make_user)
from tests.ledger.test_races import _together
from tests.support.expense_requests import as_create, as_edit

pytestmark = pytest.mark.race
ROUNDS = 8


def test_the_loser_of_two_concurrent_edits_gets_version_conflict_with_the_version(live_db):
    access, ids = make_group(make_user("editors@example.com"), guests=2)
    for round_ in range(ROUNDS):
        expense = expenses.create_expense(access, as_create(equal_body(ids[0], 900, ids)))
        settlement = settlements.create_settlement(access, SettlementInput.of(payer_id=ids[1], payee_id=ids[0],
                                                   amount=100))
        outcomes = _together([
            lambda: expenses.update_expense(access, expense.ExpenseId, 1,
                                            as_edit({"description": "A"})),
            lambda: expenses.update_expense(access, expense.ExpenseId, 1,
                                            as_edit({"description": "B"})),
            lambda: settlements.update_settlement(access, settlement.SettlementId, 1,
                                                  SettlementInput.of(amount=200)),
            lambda: settlements.update_settlement(access, settlement.SettlementId, 1,
                                                  SettlementInput.of(amount=300))])
        for pair in (outcomes[:2], outcomes[2:]):
            errors = [o for o in pair if isinstance(o, Exception)]
            assert len(errors) == 1, (round_, pair)
            assert isinstance(errors[0], Conflict), (round_, errors[0])
            assert (errors[0].code, errors[0].details) == (
                "VERSION_CONFLICT", {"currentVersion": 2}), (round_, errors[0].code)
    assert_balance_matches_rows(access.group_id)


def test_racing_guest_adds_never_overfill_a_group(live_db):
    owner = make_user("crowded@example.com")
    access, _ = make_group(owner, guests=0)
    racers = 6
    for index in range(MAX_GROUP_PARTICIPANTS - 1 - racers // 2):
        participants.add_guest(access, display_name=f"Guest {index}")
    access = authorize(owner, access.group_id, "MEMBER")  # the head as it is now
    outcomes = _together([lambda n=n: participants.add_guest(access, display_name=f"R{n}")
                          for n in range(racers)])
    full = [o for o in outcomes if isinstance(o, DomainError)]
    assert {e.code for e in full} == {"GROUP_FULL"}, outcomes
    assert len(full) == racers - racers // 2
    roster = participants.list_participants(access)
    assert len(roster) == MAX_GROUP_PARTICIPANTS
    head = Group.get(*Group.key(access.group_id), consistent_read=True)
    assert int(head.ParticipantCount) == MAX_GROUP_PARTICIPANTS


def test_no_expense_by_a_member_lands_after_their_demotion_committed(live_db):
    owner = make_user("boss@example.com")
    owner_access, ids = make_group(owner, guests=1)
    for round_ in range(ROUNDS):
        member = make_user(f"member{round_}@example.com")
        pid = join_directly(owner_access.group_id, member, "MEMBER")
        # Authorized now, as a request would be; the commit races the demotion.
        member_access = authorize(member, owner_access.group_id, "MEMBER")
        outcomes = _together([
            lambda: [expenses.create_expense(member_access, as_create(equal_body(ids[0], 100, ids)))
                     for _ in range(3)],
            lambda: participants.update_participant(
                authorize(owner, owner_access.group_id, "OWNER"), pid, role="VIEWER")])
        assert not isinstance(outcomes[1], Exception), outcomes[1]
        # Every expense that landed is older than the demotion: a fresh authorization of
        # the member now fails, and an expense after it is refused at commit.
        if isinstance(outcomes[0], Exception):
            assert getattr(outcomes[0], "status", None) == 403, (round_, outcomes[0])
        with pytest.raises(DomainError) as refused:
            expenses.create_expense(member_access, as_create(equal_body(ids[0], 100, ids)))
        assert refused.value.status == 403
    assert_balance_matches_rows(owner_access.group_id)
