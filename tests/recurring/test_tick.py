"""The hourly tick on moto: slots, month ends, catch-up, failures, reminders, buckets."""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone

import pytest

from app.errors import Conflict
from app.recurring.schemas import RecurringSchema
from app.groups import transfer
from app.groups.participants import remove_participant
from app.recurring import occurrences, schedule, templates
from app.recurring.tick import run_bucket, run_tick
from models.groups import DUE_BUCKETS, Group, RecurringExpense
from models.notifications import Event
from tests.ledger.helpers import assert_balance_matches_rows, make_group, make_user
from tests.recurring.helpers import as_patch, as_request, recorded, slots, template_body
from tests.support.faults import transaction_dies_at


@pytest.fixture
def group(aws):
    return make_group(make_user("rent@example.com"), guests=2)


def tick(access, now: str) -> dict:
    """The tick's work for this group's bucket (run_tick runs every bucket the same way)."""
    return run_bucket(RecurringExpense.bucket_of(access.group_id), now)


def create(access, body) -> dict:
    """Create a template; returns it as the API sends it."""
    return RecurringSchema().dump(templates.create_template(access, as_request(body)))


def update(access, recurring_id, updated_at, patch) -> dict:
    return RecurringSchema().dump(templates.update_template(access, recurring_id, updated_at,
                                                            as_patch(patch)))


def _row(access, recurring_id) -> RecurringExpense:
    return templates.load_template(access.group_id, recurring_id)


def test_monthly_on_the_31st_runs_on_month_ends_and_returns_to_the_anchor(group):
    access, ids = group
    made = create(access, template_body(ids[0], 3000, ids, start="2026-01-31"))
    result = run_tick("2026-05-01T00:00:00Z")
    assert result["created"] == 4
    assert slots(access.group_id) == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]
    expense = recorded(access.group_id)[0]
    assert expense.ExpenseId == occurrences.occurrence_id(made["recurringId"], "2026-01-31")
    assert expense.Date == "2026-01-31" and int(expense.Amount) == 3000
    row = _row(access, made["recurringId"])
    assert (row.NextSlot, row.NextRunAt, row.LastSlot) == ("2026-05-31",
                                                           "2026-05-31T00:00:00.000Z",
                                                           "2026-04-30")
    assert row.DueBucket == RecurringExpense.bucket_of(access.group_id)
    assert_balance_matches_rows(access.group_id)


def test_a_tick_run_twice_records_nothing_the_second_time(group):
    access, ids = group
    create(access, template_body(ids[0], 900, ids, start="2026-03-01",
                                                    frequency="WEEKLY"))
    first = tick(access, "2026-03-29T12:00:00Z")
    second = tick(access, "2026-03-29T12:00:00Z")
    assert first["created"] == 5 and second["created"] == 0
    assert len(slots(access.group_id)) == 5
    assert_balance_matches_rows(access.group_id)


def test_occurrences_are_local_midnight_of_the_templates_time_zone(group):
    access, ids = group
    made = create(access, template_body(
        ids[0], 900, ids, start="2026-07-01", frequency="DAILY", timeZone="Pacific/Auckland"))
    assert made["nextRunAt"] == "2026-06-30T12:00:00.000Z"  # NZST = UTC+12
    assert tick(access, "2026-06-30T11:59:59Z")["created"] == 0
    assert tick(access, "2026-06-30T12:00:00Z")["created"] == 1
    assert slots(access.group_id) == ["2026-07-01"]


def test_count_and_end_date_finish_the_template_and_drop_it_from_the_index(group):
    access, ids = group
    counted = create(access, template_body(ids[0], 100, ids, start="2026-01-01",
                                                              frequency="DAILY", count=3))
    ended = create(access, template_body(ids[0], 100, ids, start="2026-01-01",
                                                            frequency="WEEKLY",
                                                            endDate="2026-01-20"))
    tick(access, "2026-03-01T00:00:00Z")
    assert slots(access.group_id, counted["recurringId"]) == ["2026-01-01", "2026-01-02",
                                                              "2026-01-03"]
    assert slots(access.group_id, ended["recurringId"]) == ["2026-01-01", "2026-01-08",
                                                            "2026-01-15"]
    for rid in (counted["recurringId"], ended["recurringId"]):
        row = _row(access, rid)
        assert row.DueBucket is None and row.NextRunAt is None and row.NextSlot is None
    bucket = RecurringExpense.bucket_of(access.group_id)
    assert list(RecurringExpense.due_recurring.query(bucket)) == []


def test_paused_templates_leave_the_due_index_and_resume_from_today(group, monkeypatch):
    access, ids = group
    # Created in 2020 (inside its startDate window then), paused over the years since.
    monkeypatch.setattr(schedule, "window_now", lambda: datetime(2020, 1, 1, tzinfo=timezone.utc))
    made = create(access, template_body(ids[0], 100, ids, start="2020-01-01",
                                                           frequency="YEARLY"))
    paused = update(access, made["recurringId"], made["updatedAt"],
                                       {"paused": True})
    row = _row(access, made["recurringId"])
    assert paused["paused"] and paused["nextRunAt"] is None and row.DueBucket is None
    assert tick(access, "2026-01-02T00:00:00Z")["created"] == 0
    resumed = update(access, made["recurringId"], paused["updatedAt"],
                                        {"paused": False})
    assert resumed["nextDate"] > "2025-12-31"  # paused-over years are not back-filled
    assert _row(access, made["recurringId"]).DueBucket is not None


def test_a_deleted_participant_fails_the_slot_keeps_it_claimed_and_moves_on(group):
    access, ids = group
    made = create(access, template_body(ids[0], 100, ids[:2], start="2026-01-01",
                                                           frequency="DAILY"))
    # The template blocks removal, so take the guest away behind the API's back.
    from models.groups import Participant
    Participant(access.group_id, Participant.sort_key(ids[1])).delete()
    result = tick(access, "2026-01-03T00:00:00Z")
    assert (result["created"], result["failed"]) == (0, 3)
    row = _row(access, made["recurringId"])
    assert row.NextSlot == "2026-01-04" and row.ClaimedSlot is None
    assert tick(access, "2026-01-03T00:00:00Z")["failed"] == 0  # not re-attempted every hour


def test_a_participant_mid_transfer_defers_the_slot_until_the_transfer_finishes(group):
    access, ids = group
    owner, source, target = ids
    made = create(access, template_body(owner, 300, [owner, source], start="2026-01-01",
                                        frequency="DAILY"))
    # A transfer that dies after its lock: the source stays held (as a crashed Lambda leaves it).
    with transaction_dies_at(2), pytest.raises(RuntimeError):
        transfer.transfer_participant(access, source, target)

    result = tick(access, "2026-01-01T00:00:00Z")
    assert (result["created"], result["failed"], result["deferred"]) == (0, 0, 1)
    row = _row(access, made["recurringId"])
    assert (row.NextSlot, row.NextRunAt, row.ClaimedSlot) == (
        "2026-01-01", "2026-01-01T00:00:00.000Z", None)  # still due, not skipped

    transfer.transfer_participant(access, source, target)  # resumed: the template now names
    result = tick(access, "2026-01-02T00:00:00Z")         # the target
    assert (result["created"], result["deferred"]) == (2, 0)
    assert slots(access.group_id) == ["2026-01-01", "2026-01-02"]
    for expense in recorded(access.group_id):
        named = {split.ParticipantId for item in expense.Items for split in item.Splits}
        assert named == {owner, target}
    assert_balance_matches_rows(access.group_id)


def test_a_deleted_group_and_a_changed_currency_are_domain_failures(group):
    access, ids = group
    create(access, template_body(ids[0], 100, ids, start="2026-01-01",
                                                    frequency="DAILY"))
    Group(*Group.key(access.group_id)).update(actions=[Group.Currency.set("USD")])
    assert tick(access, "2026-01-01T00:00:00Z")["failed"] == 1
    Group(*Group.key(access.group_id)).update(actions=[Group.Currency.set("EUR"),
                                                       Group.Status.set("DELETING")])
    assert tick(access, "2026-01-02T00:00:00Z")["failed"] == 1
    assert slots(access.group_id) == []


def test_template_blocks_the_participants_removal(group):
    access, ids = group
    create(access, template_body(ids[0], 100, ids, start="2026-01-01"))
    with pytest.raises(Conflict) as refused:
        remove_participant(access, ids[2])
    assert refused.value.code == "PARTICIPANT_REFERENCED"


def test_catch_up_is_oldest_first_and_bounded_per_run(group):
    access, ids = group
    made = create(access, template_body(ids[0], 100, ids, start="2026-01-01",
                                                           frequency="DAILY"))
    bucket = RecurringExpense.bucket_of(access.group_id)
    first = run_bucket(bucket, "2026-01-10T00:00:00Z", max_slots=4)
    assert first["created"] == 4
    assert slots(access.group_id) == [f"2026-01-0{d}" for d in range(1, 5)]
    rest = run_bucket(bucket, "2026-01-10T00:00:00Z", max_slots=100)
    assert rest["created"] == 6
    assert slots(access.group_id, made["recurringId"])[-1] == "2026-01-10"
    assert_balance_matches_rows(access.group_id)


def test_reminder_is_created_once_per_upcoming_slot(group):
    access, ids = group
    made = create(access, template_body(ids[0], 100, ids, start="2026-02-01"))
    assert tick(access, "2026-01-30T23:00:00Z")["reminders"] == 0  # more than 24 h ahead
    assert tick(access, "2026-01-31T01:00:00Z")["reminders"] == 1
    assert tick(access, "2026-01-31T02:00:00Z")["reminders"] == 0
    event_id = Event.event_id("RECURRING_REMINDER", access.group_id, made["recurringId"],
                              "2026-02-01")
    assert Event.get(*Event.key(event_id)).Type == "RECURRING_REMINDER"


def test_an_archived_group_gets_no_reminder_of_a_slot_that_will_not_run(group):
    from app.groups import archive
    access, ids = group
    create(access, template_body(ids[0], 100, ids, start="2026-02-01"))
    archive.archive_group(access)
    result = tick(access, "2026-01-31T01:00:00Z")
    assert (result["reminders"], result["paused"]) == (0, 0)  # the slot is not due yet
    archive.unarchive_group(access)
    assert tick(access, "2026-01-31T02:00:00Z")["reminders"] == 1


def test_groups_spread_over_buckets_and_each_bucket_runs_alone(aws):
    owner = make_user("spread@example.com")
    groups = [make_group(owner, guests=1) for _ in range(12)]
    for access, ids in groups:
        create(access, template_body(ids[0], 100, ids, start="2026-01-01"))
    buckets = Counter(RecurringExpense.bucket_of(a.group_id) for a, _ in groups)
    assert len(buckets) > 1 and all(b.startswith("RECURRING#") for b in buckets)
    assert {int(b.split("#")[1]) for b in buckets} <= set(range(DUE_BUCKETS))
    bucket, size = buckets.most_common(1)[0]
    assert run_bucket(bucket, "2026-01-01T00:00:00Z")["created"] == size
    assert run_tick("2026-01-01T00:00:00Z")["created"] == len(groups) - size


def test_group_delete_bucket_is_not_a_recurring_bucket(aws):
    assert "GROUP_DELETE" not in RecurringExpense.buckets()


def test_tick_logs_its_counts_at_info_level(group, caplog):
    """Reserved LogRecord names ("created") must not reach ``extra``: INFO used to crash."""
    from app.logs import logger
    access, ids = group
    create(access, template_body(ids[0], 100, ids, start="2026-01-01"))
    level = logger.log_level
    logger.setLevel("INFO")
    try:
        result = run_tick("2026-01-01T00:00:00Z")
    finally:
        logger.setLevel(level)
    assert result["created"] == 1
    ticks = [r for r in caplog.records if r.getMessage() == "hourly_tick"]
    assert ticks and ticks[0].counts["created"] == 1


def test_an_income_template_records_income_occurrences_and_an_edit_turns_it_round(group):
    access, ids = group
    made = create(access, {**template_body(ids[0], 3000, ids, start="2026-01-31"),
                           "kind": "INCOME"})
    assert made["kind"] == "INCOME"
    run_tick("2026-03-01T00:00:00Z")
    assert [e.ExpenseKind for e in recorded(access.group_id)] == ["INCOME", "INCOME"]
    assert_balance_matches_rows(access.group_id)
    # The receiver's net fell by what they received, less their own share, twice.
    from app.ledger.balances import group_nets
    nets, _ = group_nets(access.group_id)
    assert nets[ids[0]] == -4000 and nets[ids[1]] == 2000 == nets[ids[2]]
    edited = update(access, made["recurringId"], made["updatedAt"], {"kind": "EXPENSE"})
    assert edited["kind"] == "EXPENSE"
    run_tick("2026-04-01T00:00:00Z")
    assert [e.ExpenseKind for e in recorded(access.group_id)] == ["INCOME", "INCOME", None]


def test_an_archived_groups_templates_wait_and_resume_without_backfill(group, monkeypatch):
    """Archived: nothing runs. Unarchived on 15 April: the next slot on or after that day
    runs, the three missed month-ends are never recorded."""
    from app.groups import archive
    access, ids = group
    made = create(access, template_body(ids[0], 3000, ids, start="2026-01-31"))
    RecurringExpense(access.group_id, RecurringExpense.sort_key(made["recurringId"])).update(
        actions=[RecurringExpense.CreatedAt.set("2026-01-01T00:00:00.000Z")])
    archive.archive_group(access)
    result = run_tick("2026-03-01T00:00:00Z")
    assert (result["created"], result["paused"]) == (0, 1)
    monkeypatch.setattr(archive, "now_iso", lambda: "2026-04-15T10:00:00.000Z")
    archive.unarchive_group(access)
    result = run_tick("2026-05-01T00:00:00Z")
    assert result["created"] == 1 and slots(access.group_id) == ["2026-04-30"]
    row = _row(access, made["recurringId"])
    assert (row.NextSlot, row.LastSlot) == ("2026-05-31", "2026-04-30")
    assert_balance_matches_rows(access.group_id)
