"""Catch-up is bounded: the startDate window, the per-template cap per run, one summary
notification per template per run, and run instants that sort (issue 20, items 3 and 9)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.errors import Invalid
from app.notifications.render import Context, render
from app.recurring import occurrences, schedule, templates, tick
from app.recurring.schedule import iso
from models.groups import RecurringExpense
from models.notifications import Event, NotificationItem
from tests.ledger.helpers import make_group, make_user
from tests.recurring.conftest import PINNED
from tests.recurring.helpers import as_patch, as_request, slots, template_body

TODAY = PINNED.date()


@pytest.fixture
def group(aws):
    return make_group(make_user("backfill@example.com"), guests=1)


def _added(group_id: str) -> list:
    return sorted((row for row in NotificationItem.scan()
                   if isinstance(row, Event) and row.Type == "EXPENSE_ADDED"
                   and row.GroupId == group_id), key=lambda e: e.Payload.as_dict()["slot"])


def _day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


@pytest.mark.parametrize("start,zone", [
    ("1900-01-01", "UTC"),
    ("0001-01-01", "Asia/Tokyo"),   # was a 500: local midnight before year 1 in UTC
    ("0001-01-01", "UTC"),
    ("9999-12-31", "Pacific/Honolulu"),  # its UTC run instant is in year 10000
    (_day(-schedule.START_PAST_DAYS - 1), "UTC"),
    (_day(schedule.START_AHEAD_DAYS + 1), "UTC"),
])
def test_a_start_outside_the_window_is_a_validation_error(client, sign_in, start, zone):
    headers, _ = sign_in("window@example.com")
    made = client.post("/groups", json={"name": "Flat", "currency": "EUR"},
                       headers=headers).get_json()
    base, me = f"/groups/{made['groupId']}", made["myParticipantId"]
    reply = client.post(f"{base}/recurring", headers=headers,
                        json=template_body(me, 100, [me], start=start, timeZone=zone))
    assert reply.status_code == 400, reply.get_json()
    error = reply.get_json()["error"]
    assert error["code"] == "VALIDATION_ERROR" and "startDate" in error["details"]
    assert f"{schedule.START_PAST_DAYS} days back" in error["message"]


@pytest.mark.parametrize("offset", [-schedule.START_PAST_DAYS, 0, schedule.START_AHEAD_DAYS])
def test_the_window_ends_are_accepted(group, offset):
    access, ids = group
    made = templates.create_template(access, as_request(template_body(ids[0], 100, ids,
                                                           start=_day(offset))))
    assert made.next_date == _day(offset)


def test_a_patched_start_is_held_to_the_window_too(group):
    access, ids = group
    made = templates.create_template(access, as_request(template_body(ids[0], 100, ids, start=_day(0))))
    with pytest.raises(Invalid) as refused:
        templates.update_template(access, made.RecurringId, made.UpdatedAt,
                                  as_patch({"startDate": "0001-01-01", "timeZone": "Asia/Tokyo"}))
    assert "startDate" in refused.value.details


def test_run_instants_keep_four_year_digits_so_they_sort():
    early = iso(datetime(999, 12, 31, 23, tzinfo=timezone.utc))
    assert early == "0999-12-31T23:00:00.000Z"
    assert early < iso(datetime(1000, 1, 1, tzinfo=timezone.utc))


def test_catch_up_is_capped_per_template_and_notifies_once_per_run(group):
    access, ids = group
    cap = occurrences.MAX_SLOTS_PER_TEMPLATE_RUN
    made = templates.create_template(access, as_request(template_body(ids[0], 100, ids, frequency="DAILY",
                                                           start=_day(-100))))
    bucket = RecurringExpense.bucket_of(access.group_id)
    now = iso(PINNED)
    assert tick.run_bucket(bucket, now)["created"] == cap
    events = _added(access.group_id)
    assert len(events) == 1  # one summary, not one per occurrence
    payload = events[0].Payload.as_dict()
    assert payload["occurrences"] == cap and payload["firstSlot"] == _day(-100)
    assert payload["slot"] == _day(-100 + cap - 1) == slots(access.group_id)[-1]
    title, body = render("EXPENSE_ADDED", events[0].ActorUserId, payload,
                         Context(group_name="Trip", currency="EUR"))
    assert f"recorded {cap} times" in body and title == "New expenses in Trip"

    assert tick.run_bucket(bucket, now)["created"] == cap  # the rest follows, run by run
    assert len(_added(access.group_id)) == 2
    while tick.run_bucket(bucket, now)["created"]:
        pass
    assert len(slots(access.group_id, made.RecurringId)) == 101
    assert len(_added(access.group_id)) == -(-101 // cap)


def test_an_on_time_occurrence_still_notifies_as_one_expense(group):
    access, ids = group
    templates.create_template(access, as_request(template_body(ids[0], 100, ids, frequency="DAILY",
                                                    start=_day(0))))
    tick.run_bucket(RecurringExpense.bucket_of(access.group_id), iso(PINNED))
    (event,) = _added(access.group_id)
    assert event.Payload.as_dict()["occurrences"] == 1
    _, body = render("EXPENSE_ADDED", event.ActorUserId, event.Payload.as_dict(),
                     Context(group_name="Trip", currency="EUR"))
    assert "times" not in body and "Rent" in body


def test_a_re_read_snapshot_does_not_work_a_capped_template_twice(group, monkeypatch):
    """With one row per snapshot, the run reads again; the capped template waits."""
    access, ids = group
    monkeypatch.setattr(tick, "SNAPSHOT_PAGE", 1)
    monkeypatch.setattr(tick, "SNAPSHOT_PAGES", 1)
    cap = occurrences.MAX_SLOTS_PER_TEMPLATE_RUN
    first = templates.create_template(access, as_request(template_body(ids[0], 100, ids, frequency="DAILY",
                                                            start=_day(-100))))
    second = templates.create_template(access, as_request(template_body(ids[0], 100, ids,
                                                             frequency="DAILY", start=_day(-2))))
    result = tick.run_bucket(RecurringExpense.bucket_of(access.group_id), iso(PINNED))
    assert len(slots(access.group_id, first.RecurringId)) == cap
    assert len(slots(access.group_id, second.RecurringId)) == 3
    assert result["created"] == cap + 3
