"""Restore property (issue 47): after any random sequence of creates, edits, deletes and
restores of expenses, settlements and comments (with guests added and transferred away), the
materialised balance equals a recomputation from the rows, and a replica that syncs only
through GET /changes equals a full fetch (tests/changes/test_sync_stateful.py's machine,
whose rules this one inherits, plus restores from the trash)."""
from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule

from app.errors import Conflict
from app.ledger import expense_delete, settlements, trash
from models.groups import TRASH_PREFIX, GroupItem, Participant, Trashed
from tests.changes.test_sync_stateful import SyncMachine
from tests.ledger.helpers import assert_balance_matches_rows


class RestoreMachine(SyncMachine):
    def trashed(self) -> list:
        return sorted(row.ResourceId for row in Trashed.query(
            self.gid, Trashed.SK.startswith(TRASH_PREFIX), consistent_read=True))

    @precondition(lambda self: self.rows("EXPENSE") or self.rows("SETTLEMENT"))
    @rule(data=st.data())
    def delete_one_to_restore(self, data):
        """Deletes weigh more here than in the sync machine, so restores have rows to take."""
        kind = data.draw(st.sampled_from([k for k in ("EXPENSE", "SETTLEMENT") if self.rows(k)]))
        resource_id = data.draw(st.sampled_from(self.rows(kind)))
        if kind == "EXPENSE":
            expense_delete.delete_expense(self.access(False), resource_id)
        else:
            settlements.delete_settlement(self.access(False), resource_id)

    @precondition(lambda self: self.trashed())
    @rule(data=st.data(), stale=st.booleans())
    def restore(self, data, stale):
        resource_id = data.draw(st.sampled_from(self.trashed()))
        try:
            trash.restore(self.access(stale), resource_id)
        except Conflict as error:
            # Only a participant transferred away since (the machine's transfer rule
            # removes the guest it empties) keeps a row in the trash.
            assert error.code == "PARTICIPANT_GONE", error.code
            gone = error.details["participantId"]
            assert GroupItem.raw_get(self.gid, Participant.sort_key(gone)) is None
            assert resource_id in self.trashed()
        else:
            assert resource_id not in self.trashed()

    @invariant()
    def the_balance_equals_a_recomputation(self):
        assert_balance_matches_rows(self.gid)


RestoreMachine.TestCase.settings = settings(
    max_examples=8, stateful_step_count=16, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestRestoreKeepsBalancesAndReplica = RestoreMachine.TestCase
