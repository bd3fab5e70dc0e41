"""The cross-group projection (app/insight/projection.py) equals a recomputation from the
groups once the stream settles: random writers across several groups create, edit (date,
description, who is in it) and delete expenses, record settlements, convert a kept currency, and a second account
joins groups and leaves one. Records are fed once each, in order, as Lambda feeds them (a
step's own record must do its part: a group rebuild would hide a resource sync that left a
row behind); a settle that replays every record again changes nothing."""
from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from moto import mock_aws

import models
from app.errors import Conflict, Invalid
from app.core.access import authorize
from app.groups.groups import create_group
from app.groups.participants import add_guest, leave_group
from app.ledger import conversions, expenses, settlements
from app.ledger.expense_delete import delete_expense
from app.money.settlement_input import SettlementInput
from app.money.stats import shares
from models.groups import Conversion, GroupItem, Expense, Settlement
from models.users import MyEntry
from tests.conftest import STAGE
from tests.ledger.helpers import equal_body, join_directly, make_user
from tests.support.expense_requests import as_create, as_edit
from tests.support.projection import settle, settle_new
from tests.support.tables import create_all_tables

DAYS = ["2026-01-01", "2026-01-02", "2026-01-03"]
steps = st.lists(st.tuples(
    st.sampled_from(["create", "create", "edit", "delete", "settle", "convert"]),
    st.integers(0, 2),  # group
    st.integers(0, 20),  # which expense (mod the group's)
    st.sampled_from(DAYS),
    st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True),
    st.booleans()), max_size=14)  # the stream settles after this step (else later)


def recomputed(groups, accounts) -> dict:
    """account -> {(group, resource key): (date, paid, owed)} from the groups' own rows."""
    want = {account: {} for account in accounts}
    for access, bound in groups:
        for row in GroupItem.partition(access.group_id):
            for account, pid in bound().items():
                if isinstance(row, Expense) and row.SK.endswith("#0#META"):
                    _, _, owed, paid = shares(row)
                    if pid in owed or pid in paid:
                        want[account][(access.group_id, row.SK)] = (
                            row.Date, paid.get(pid, 0), owed.get(pid, 0))
                elif isinstance(row, Settlement) and pid in (row.PayerId, row.PayeeId):
                    want[account][(access.group_id, row.SK)] = (
                        row.Date or row.CreatedAt[:10],
                        int(row.Amount) if pid == row.PayerId else 0,
                        int(row.Amount) if pid == row.PayeeId else 0)
                elif isinstance(row, Conversion) and pid in row.KeptNets.as_dict():
                    kept = int(row.KeptNets.as_dict()[pid])  # leaves the kept currency
                    want[account][(access.group_id, row.SK)] = (
                        row.CreatedAt[:10], max(-kept, 0), max(kept, 0))
    return want


def projected(accounts) -> dict:
    return {account: {(e.GroupId, e.ResourceKey): (e.Date, int(e.Paid), int(e.Owed))
                      for page in MyEntry.pages_of(account, 500) for e in page}
            for account in accounts}


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck),
          phases=(Phase.explicit, Phase.generate))
@given(plan=steps, leaves=st.booleans())
def test_the_projection_equals_a_recomputation_after_the_stream_settles(plan, leaves):
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        me, bo = make_user("me@example.com"), make_user("bo@example.com")
        groups, pids, made = [], [], []
        for n in range(3):
            access = authorize(me, create_group(me, name=f"G{n}", currency="EUR").group_id)
            guest = add_guest(access, display_name="Gus").ParticipantId
            them = join_directly(access.group_id, bo, "MEMBER", "Bo") if n < 2 else guest
            members = {me: access.participant_id, **({bo: them} if n < 2 else {})}
            groups.append((access, lambda members=members: members))
            pids.append([access.participant_id, them, guest])
            made.append([])
        for action, g, which, day, among, settled in plan:
            access, ids = groups[g][0], pids[g]
            people = sorted({ids[i] for i in among})
            if action == "create" or (action in ("edit", "delete") and not made[g]):
                row = expenses.create_expense(access, as_create(
                    equal_body(ids[among[0]], 300, people, date=day)))
                made[g].append(row.ExpenseId)
            elif action == "edit":
                expense_id = made[g][which % len(made[g])]
                current = expenses.load_expense(access.group_id, expense_id)
                expenses.update_expense(access, expense_id, int(current.Version), as_edit(
                    equal_body(ids[among[0]], 600, people, date=day, description="Edited")))
            elif action == "delete":
                delete_expense(access, made[g].pop(which % len(made[g])))
            elif action == "settle":
                settlements.create_settlement(access, SettlementInput.of(
                    payer_id=ids[1], payee_id=ids[0], amount=50))
            else:  # a kept USD expense, then its nets moved into EUR
                expenses.create_expense(access, as_create(
                    {**equal_body(ids[among[0]], 300, people, date=day), "currency": "USD"}))
                try:
                    conversions.convert_kept(access, {"currency": "USD", "exchangeRate": "0.9"})
                except Invalid:  # the payer is the only one in it: nothing kept
                    pass
            if settled:  # rows exist before the edit or delete that must rewrite them
                settle_new()
        if leaves:  # Bo leaves the first group when nothing names him there
            try:
                leave_group(authorize(bo, groups[0][0].group_id))
                groups[0] = (groups[0][0], lambda: {me: pids[0][0]})
            except Conflict:
                pass
        settle_new()
        want = recomputed(groups, [me, bo])
        assert projected([me, bo]) == want
        settle()  # every record again: the same rows
        assert projected([me, bo]) == want
