"""Stateful proof: a replica that syncs only through GET /changes equals a full fetch.

A hypothesis RuleBasedStateMachine drives random writes through the services (expenses,
comments, settlements, guests, edits, deletes, a participant transfer) against a fresh moto
per example. Some writes go through an Access read several steps earlier, as a concurrent
writer's would: its revision is stale, so its commit must renumber. After every step the
replica syncs in small pages (each change applied as the feed's data, a DELETE removing the
row, an expense's DELETE its comments too) and must equal every row of the group as the
lists read them, and the revisions it saw must have no gap."""
from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from moto import mock_aws

import models
from app.changes.schemas import ChangeFeedSchema
from app.ledger.schemas import CommentSchema, ExpenseSchema
from app.groups.schemas import ParticipantSchema
from app.ledger.schemas import SettlementSchema
from app.changes import feed
from app.core.access import authorize
from app.groups import participants, transfer
from app.ledger import comments, expense_delete, expenses, settlements
from app.ledger.settlements import GroupSettlement
from app.money.settlement_input import SettlementInput
from models.groups import EXPENSE_PREFIX, Comment, Expense, Participant, Settlement
from tests.ledger.helpers import equal_body, make_group, make_user
from tests.support.tables import create_all_tables
from tests.support.expense_requests import as_create, as_edit

STAGE = "syncstate"
KINDS = ("EXPENSE", "COMMENT", "SETTLEMENT", "PARTICIPANT")


def full_fetch(group_id: str, currency: str) -> dict:
    """Every row of the group as its reads dump it, by kind and id."""
    rows = {kind: {} for kind in KINDS}
    for expense in Expense.query(group_id, Expense.SK.startswith(EXPENSE_PREFIX),
                                 consistent_read=True):
        rows["EXPENSE"][expense.ExpenseId] = ExpenseSchema().dump(expense)
    for comment in Comment.query(group_id, Comment.SK.startswith(EXPENSE_PREFIX),
                                 consistent_read=True):
        if comment.expense_id in rows["EXPENSE"]:  # a trashed expense's are not readable
            rows["COMMENT"][comment.CommentId] = CommentSchema().dump(comment)
    for settlement in Settlement.newest_first(group_id, consistent_read=True):
        rows["SETTLEMENT"][settlement.SettlementId] = SettlementSchema().dump(
            GroupSettlement(settlement, currency))
    for participant in Participant.roster(group_id, consistent_read=True):
        rows["PARTICIPANT"][participant.ParticipantId] = ParticipantSchema().dump(participant)
    return rows


class SyncMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self._mock = mock_aws()
        self._mock.start()
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        self.user = make_user("sync@example.com")
        access, self.ids = make_group(self.user, guests=2)
        self.gid = access.group_id
        self.stale = access  # a writer that read the revision long ago
        self.replica = {kind: {} for kind in KINDS}
        self.since = 0
        self.seen = []  # every revision a page covered, in order

    def teardown(self):
        self._mock.stop()

    def access(self, stale: bool):
        return self.stale if stale else authorize(self.user, self.gid, "MEMBER")

    def rows(self, kind: str) -> list:
        """Ids of one kind: the replica's, which the last step proved equal to the table's."""
        return sorted(self.replica.get(kind, {}))

    @rule(data=st.data(), amount=st.integers(1, 10_000), stale=st.booleans())
    def add_expense(self, data, amount, stale):
        among = data.draw(st.lists(st.sampled_from(self.ids), min_size=1, unique=True))
        expenses.create_expense(self.access(stale), as_create(equal_body(self.ids[0], amount, among)))

    @precondition(lambda self: self.rows("EXPENSE"))
    @rule(data=st.data(), stale=st.booleans())
    def edit_expense(self, data, stale):
        expense_id = data.draw(st.sampled_from(self.rows("EXPENSE")))
        current = expenses.load_expense(self.gid, expense_id)
        patch = data.draw(st.sampled_from([{"description": "Renamed"}, {"date": "2026-02-02"},
                                           equal_body(self.ids[-1], 77, self.ids)]))
        expenses.update_expense(self.access(stale), expense_id, int(current.Version), as_edit(patch))

    @precondition(lambda self: self.rows("EXPENSE"))
    @rule(data=st.data())
    def delete_expense(self, data):
        expense_delete.delete_expense(self.access(False),
                                      data.draw(st.sampled_from(self.rows("EXPENSE"))))

    @precondition(lambda self: self.rows("EXPENSE"))
    @rule(data=st.data(), stale=st.booleans())
    def comment(self, data, stale):
        comments.add_comment(self.access(stale), data.draw(st.sampled_from(self.rows("EXPENSE"))),
                             "note")

    @precondition(lambda self: self.rows("COMMENT"))
    @rule(data=st.data(), delete=st.booleans())
    def edit_or_delete_comment(self, data, delete):
        comment_id = data.draw(st.sampled_from(self.rows("COMMENT")))
        expense_id = self.replica["COMMENT"][comment_id]["expenseId"]
        if delete:
            comments.delete_comment(self.access(False), expense_id, comment_id)
        else:
            comments.edit_comment(self.access(False), expense_id, comment_id, "edited")

    @rule(data=st.data(), amount=st.integers(1, 10_000), stale=st.booleans())
    def settle(self, data, amount, stale):
        payer, payee = data.draw(st.lists(st.sampled_from(self.ids), min_size=2, max_size=2,
                                          unique=True))
        settlements.create_settlement(self.access(stale), SettlementInput.of(payer_id=payer, payee_id=payee,
                                      amount=amount))

    @precondition(lambda self: self.rows("SETTLEMENT"))
    @rule(data=st.data(), delete=st.booleans())
    def edit_or_delete_settlement(self, data, delete):
        settlement_id = data.draw(st.sampled_from(self.rows("SETTLEMENT")))
        if delete:
            settlements.delete_settlement(self.access(False), settlement_id)
        else:
            version = int(settlements.find_settlement(self.gid, settlement_id).Version)
            settlements.update_settlement(self.access(False), settlement_id, version,
                                          SettlementInput.of(amount=5))

    @rule(stale=st.booleans())
    def add_guest(self, stale):
        self.ids.append(participants.add_guest(self.access(stale),
                                               display_name="Guest").ParticipantId)

    @precondition(lambda self: len(self.ids) > 2)
    @rule()
    def transfer_last_guest_into_the_first(self):
        owner = authorize(self.user, self.gid, "OWNER")
        transfer.transfer_participant(owner, self.ids.pop(), self.ids[1])

    @rule()
    def forget_the_stale_writer(self):
        self.stale = self.access(False)

    def sync(self) -> None:
        while True:
            rows = feed.page_for(self.gid, self.since, 3)
            page = ChangeFeedSchema().dump(feed.changes_since(
                authorize(self.user, self.gid, prefetch=rows.keys), self.since, rows))
            assert page["reset"] is False
            for change in page["changes"]:
                table = self.replica.setdefault(change["kind"], {})
                if change["op"] == "DELETE":
                    table.pop(change["id"], None)
                    if change["kind"] == "EXPENSE":
                        self.replica["COMMENT"] = {
                            cid: c for cid, c in self.replica["COMMENT"].items()
                            if c["expenseId"] != change["id"]}
                else:
                    table[change["id"]] = change["data"]
            self.seen += list(range(self.since + 1, page["nextSince"] + 1))
            self.since = page["nextSince"]
            if not page["hasMore"]:
                return

    @invariant()
    def the_replica_equals_a_full_fetch(self):
        self.sync()
        assert {kind: self.replica[kind] for kind in KINDS} == full_fetch(self.gid, "EUR")
        assert self.seen == list(range(1, self.since + 1))


SyncMachine.TestCase.settings = settings(
    max_examples=4, stateful_step_count=8, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestReplicaEqualsFullFetch = SyncMachine.TestCase
