"""History rows are conditional PutItems after one strongly consistent read of the
recipients' profiles (issue 33), not a transaction holding a check on each profile. A
recipient marked for deletion before that read gets no row; one marked just after it gets
its row, in the partition the deletion sweeps, and the deletion removes it."""
from __future__ import annotations

from app.account import cognito, deletion, steps
from models.notifications import Notification, NotificationItem
from models.users import Profile
from tests.notifications.conftest import pending_records, run_worker
from tests.notifications.test_worker import add_expense, duo  # noqa: F401 — the fixture
from tests.support import aws_calls


def _bob_history(ctx) -> list:
    return [row for row in NotificationItem.query(f"USER#{ctx.bob}")
            if isinstance(row, Notification)]


def test_profiles_are_read_once_and_rows_are_single_puts(duo, recorder):
    add_expense(duo)
    records = pending_records()
    with aws_calls.recorded() as made:
        assert run_worker(records) == []
    assert "TransactWriteItems" not in made
    assert "PutItem" in made and _bob_history(duo)  # a put per row, no check


def test_a_recipient_marked_before_the_read_gets_no_row(duo, recorder):
    add_expense(duo)
    steps.mark(Profile.get(*Profile.key(duo.bob)))
    assert run_worker(pending_records()) == []
    assert _bob_history(duo) == []
    assert [token for _, token, _ in recorder.sent if token == "bob-phone"] == []


def test_a_row_racing_the_mark_is_removed_by_the_deletion(duo, recorder):
    """The mark lands right after the worker's BatchGetItem of the profiles (the second
    BatchGetItem, after the preferences'), which read Bob as live: his row lands, and the
    deletion's sweep of his notifications partition removes it."""
    assert run_worker(pending_records()) == []  # the join's events first
    before = len(_bob_history(duo))
    add_expense(duo)
    seen = {"batch_gets": 0}

    def mark_after_profile_read(operation_name, _parsed, _ok):
        if operation_name == "BatchGetItem":
            seen["batch_gets"] += 1
            if seen["batch_gets"] == 2:
                steps.mark(Profile.get(*Profile.key(duo.bob)))

    with aws_calls.watched(after=mark_after_profile_read):
        assert run_worker(pending_records()) == []
    assert seen["batch_gets"] == 2
    assert Profile.get(*Profile.key(duo.bob)).deleting
    assert len(_bob_history(duo)) == before + 1  # raced in after the mark
    cognito.use(cognito.RecordingDirectory())
    try:
        assert deletion.delete_account(duo.bob).done
    finally:
        cognito.use(None)
    assert _bob_history(duo) == []
