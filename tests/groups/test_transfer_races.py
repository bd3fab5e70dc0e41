"""A participant transfer meeting expense edits and new expenses naming the source, at every
point of its run, deterministically (tests/support/interleave.py, no threads, no sleeps).

Each round has a fresh group: owner O and guests S (source), T (target) and X, an expense
naming S and T (a merge) and one naming S and X. The competing writers are a full edit of
each expense at version 1 (one keeps naming S, one drops S), a new expense naming S and one
naming only O and X. Each round runs them one after another at one point of the transfer:
before its lock, right after the lock, between the rewrite pass's reads and its
TransactWrite (the rows change under it), right after the rewrite, or after the transfer.
Whatever won, afterwards:
- no expense, settlement or template names S, and S is gone;
- every net but S's and T's equals the fold of the bodies that won (as the writers sent
  them, before any rename); T's net is that fold's S + T (conserved); S holds none;
- the materialised BALANCE#v1 equals a recomputation from the rows.
A transfer that gave up mid-way (409 CONCURRENT_UPDATE) must finish when called again.
The same writers on real threads against the embedded endpoint: tests/groups/test_races.py's
harness; here every window is hit on purpose, every run the same.

Setup is one BatchWriteItem per round (guests, the two expenses at version 1, the balance row
they imply) and the round's rows are swept afterwards: small tables and few calls keep the
rounds quick."""
from __future__ import annotations

from types import SimpleNamespace

import boto3
import pytest

from app.errors import DomainError
from app.core.access import authorize
from app.core.clock import new_id, now_iso
from app.groups import groups, participants, transfer
from app.ledger import balances, expense_build, expenses
from models.groups import Balance, Expense, Group, GroupItem, Participant
from tests.groups.test_races import _delete_all, codes, guest_row, profile, put_all
from tests.support.interleave import just_after, just_before
from tests.support.expense_requests import as_create, as_edit

TX = "TransactWriteItems"
# Where the writers run: (hook, TransactWriteItems call of the transfer) or None for after
# it returned. The transfer's calls: 1 the lock, 2 the rewrite of both expenses, 3 the finish.
POINTS = ((just_before, 1), (just_after, 1), (just_before, 2), (just_after, 2), None)


def body(payer: str, amount: int, among: list, mode: str = "EQUAL", values=None) -> dict:
    return {"description": "Race", "date": "2026-11-28", "amount": amount,
            "payments": [{"participantId": payer, "amount": amount}], "splitMode": mode,
            "splits": [{"participantId": pid, "value": value}
                       for pid, value in zip(among, values or [0] * len(among), strict=True)]}


def nets_of(bodies: list) -> dict:
    total: dict = {}
    for one in bodies:
        for pid, value in expense_build.build(as_create(one)).nets.items():
            total[pid] = total.get(pid, 0) + value
    return total


def expense_row(gid: str, one: dict) -> Expense:
    """The row create_expense writes for ``one`` (version 1), for a one-call setup."""
    draft, expense_id, now = expense_build.build(as_create(one), "EUR"), new_id(), now_iso()
    return Expense(gid, Expense.sort_key(expense_id), ExpenseId=expense_id,
                   ExpenseSortKey=Expense.expense_sort_key(draft.date, now, expense_id),
                   Date=draft.date, **draft.body.to_row_attributes(),
                   Version=1, CreatedAt=now, UpdatedAt=now)


def balance_row(world, bodies: list) -> dict:
    """BALANCE#v1 as the bodies' creates leave it (raw: nets are dynamic attributes)."""
    item = {"GroupId": {"S": world.gid}, "SK": {"S": "BALANCE#v1"},
            "EntityType": {"S": "BALANCE"}, "Initialized": {"BOOL": True},
            "BalanceRevision": {"N": "2"}, "ExpenseCount": {"N": str(len(bodies))},
            "SettlementCount": {"N": "0"}}
    for pid, net in nets_of(bodies).items():
        item[Balance.net_attribute(pid)] = {"N": str(net)}
    return item


def sweep(world) -> None:
    """Delete the round's rows (everything but the group's starting rows)."""
    doomed = [{"GroupId": row.GroupId, "SK": row.SK}
              for row in GroupItem.query(world.gid, consistent_read=True)
              if row.SK not in world.keep or row.SK == "BALANCE#v1"]
    _delete_all(world, {GroupItem.Meta.table_name: doomed})


@pytest.fixture
def world(aws):
    """One group with its owner on moto (one thread: DynamoDB's own atomicity is not what is
    tested); ``keep`` is every row the group started with."""
    world = SimpleNamespace(client=boto3.client("dynamodb", region_name="us-east-1"),
                            owner=new_id())
    put_all(world, profile(world.owner))
    group = groups.create_group(world.owner, name="Race", currency="EUR")
    world.gid, world.owner_pid = group.group_id, group.participant_id
    world.keep = {row.SK for row in GroupItem.query(world.gid, consistent_read=True)}
    return world


def at_point(point, transfer_call, writers: list) -> list:
    """Run the transfer with the writers at ``point``; [transfer outcome, *writers' outcomes]
    (each a result or the DomainError it raised)."""
    outcomes: list = [None] * (len(writers) + 1)

    def attempt(index, call):
        try:
            outcomes[index] = call()
        except DomainError as error:
            outcomes[index] = error

    def run_writers():
        for index, call in writers:
            attempt(index, call)

    if point is None:
        attempt(0, transfer_call)
        run_writers()
    else:
        hook, nth = point
        with hook(TX, run_writers, nth=nth):
            attempt(0, transfer_call)
    return outcomes


def test_transfer_races_edits_and_new_expenses_naming_the_source(world):
    head = Group.get(*Group.key(world.gid), consistent_read=True)
    o = world.owner_pid
    outcomes_seen: set = set()
    for round_number, point in enumerate(POINTS):
        s, t, x = new_id(), new_id(), new_id()
        first = body(s, 600, [o, s, t])
        second = body(o, 500, [o, s, x], "SHARES", [1, 2, 1])
        e1, e2 = expense_row(world.gid, first), expense_row(world.gid, second)
        head.ParticipantCount = 4
        put_all(world, head, guest_row(world, s), guest_row(world, t), guest_row(world, x),
                e1, e2)
        world.client.put_item(TableName=GroupItem.Meta.table_name,
                              Item=balance_row(world, [first, second]))
        access = authorize(world.owner, world.gid, "OWNER")
        keeps_s = body(x, 700, [s, x, t])
        drops_s = body(o, 500, [o, x])
        new_s, new_other = body(s, 300, [s, x]), body(x, 200, [o, x])

        writers = list(enumerate((
            lambda: expenses.update_expense(access, e1.ExpenseId, 1, as_edit(keeps_s)),
            lambda: expenses.update_expense(access, e2.ExpenseId, 1, as_edit(drops_s)),
            lambda: expenses.create_expense(access, as_create(new_s)),
            lambda: expenses.create_expense(access, as_create(new_other))), start=1))
        outcomes = at_point(point, lambda: transfer.transfer_participant(access, s, t), writers)
        found = codes(outcomes)
        assert set(found) <= {"CONCURRENT_UPDATE", "VERSION_CONFLICT",
                              "PARTICIPANT_UNAVAILABLE"}, found
        if isinstance(outcomes[0], DomainError):
            assert outcomes[0].code == "CONCURRENT_UPDATE", outcomes[0]
            transfer.transfer_participant(access, s, t)  # the same call resumes
        lost = tuple(isinstance(one, DomainError) for one in outcomes[1:])
        outcomes_seen.add(lost)

        won = [first if lost[0] else keeps_s, second if lost[1] else drops_s]
        won += [one for one, failed in ((new_s, lost[2]), (new_other, lost[3])) if not failed]
        expected = nets_of(won)
        stored = Balance.nets_of(Balance.fetch_raw(world.gid))
        for pid in (o, x):
            assert stored.get(pid, 0) == expected.get(pid, 0), (round_number, pid, lost)
        assert stored.get(t, 0) == expected.get(s, 0) + expected.get(t, 0), (round_number, lost)
        assert stored.get(s, 0) == 0
        assert {k: v for k, v in stored.items() if v} == balances.recompute(world.gid).nets
        assert not participants.is_referenced(world.gid, s)
        with pytest.raises(Participant.DoesNotExist):
            Participant.get(world.gid, Participant.sort_key(s), consistent_read=True)
        assert int(Participant.get(world.gid, Participant.sort_key(t),
                                   consistent_read=True).IncomingTransfers) == 0
        sweep(world)
    # Every window matters: each writer naming the source both won and lost across the rounds.
    for writer in range(3):
        assert {lost[writer] for lost in outcomes_seen} == {True, False}, (writer, outcomes_seen)
