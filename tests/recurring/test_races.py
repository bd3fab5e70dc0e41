"""Exactly once under races: real threads against the serialized embedded endpoint.

Each round moves the clock one day on a daily template, so every round has exactly one new
slot to record, and the ticks of a round fight over it. Faults are injected below our code,
through botocore's events (tests/support/aws_calls.py), for the thread that is meant to suffer them."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import date, timedelta

import pytest
from botocore.exceptions import ClientError

from app.errors import Conflict
from app.groups.participants import add_guest, remove_participant
from app.recurring import templates
from app.recurring.tick import run_bucket
from models.groups import Balance, Participant, RecurringExpense
from tests.support import aws_calls
from tests.ledger.helpers import assert_balance_matches_rows, make_group, make_user
from tests.recurring.helpers import as_request, slots, template_body

pytestmark = pytest.mark.race

ROUNDS = 20  # bounded: exactly-once is checked every round (each a day of racing ticks)
START = date(2026, 1, 1)


class Killed(BaseException):
    """The process dying mid-call: no except Exception (and so no rollback) sees it."""


def _together(functions, names=None):
    """Run every function at once on named threads; return results or exceptions."""
    barrier = threading.Barrier(len(functions))
    names = names or [f"tick-{index}" for index in range(len(functions))]

    def run(pair):
        function, name = pair
        threading.current_thread().name = name
        barrier.wait()
        try:
            return function()
        except BaseException as error:  # noqa: BLE001 — the outcome is what we assert on
            return error

    with ThreadPoolExecutor(len(functions)) as pool:
        return list(pool.map(run, zip(functions, names, strict=True)))


@pytest.fixture
def inject():
    """inject[thread_name] = make_error: that thread's TransactWriteItems raise make_error()."""
    faults = {}

    def faulty(operation_name, _params):
        make = faults.get(threading.current_thread().name)
        if make and operation_name == "TransactWriteItems":
            return make()
        return None

    with aws_calls.failing(faulty):
        yield faults


@pytest.fixture
def daily(live_db):
    access, ids = make_group(make_user("race-tick@example.com"), guests=1)
    made = templates.create_template(access, as_request(template_body(
        ids[0], 301, ids, start=START.isoformat(), frequency="DAILY")))
    return access, made.RecurringId, RecurringExpense.bucket_of(access.group_id)


def _at(day: int, hour: int = 0) -> str:
    return f"{START + timedelta(days=day)}T{hour:02d}:00:00Z"


def _assert_exactly_once(access, recurring_id, rounds: int) -> None:
    expected = [(START + timedelta(days=d)).isoformat() for d in range(rounds)]
    assert slots(access.group_id, recurring_id) == expected
    raw = Balance.fetch_raw(access.group_id)
    assert int(raw["ExpenseCount"]["N"]) == rounds
    assert_balance_matches_rows(access.group_id)
    row = templates.load_template(access.group_id, recurring_id)
    assert row.ClaimedSlot is None
    assert row.NextSlot == (START + timedelta(days=rounds)).isoformat()


def _recorded_count(access) -> int:
    """Expenses recorded so far, from the balance row (one GetItem, flat per round)."""
    return int(Balance.fetch_raw(access.group_id)["ExpenseCount"]["N"])


def test_two_ticks_at_once_record_each_slot_once(daily):
    access, recurring_id, bucket = daily
    for day in range(ROUNDS):
        results = _together([lambda: run_bucket(bucket, _at(day))] * 2)
        assert all(isinstance(r, dict) for r in results), results
        assert sum(r["created"] for r in results) == 1, (day, results)
    _assert_exactly_once(access, recurring_id, ROUNDS)


def test_a_tick_run_twice_records_each_slot_once(daily):
    access, recurring_id, bucket = daily
    for day in range(ROUNDS):
        assert run_bucket(bucket, _at(day, 1))["created"] == 1
        assert run_bucket(bucket, _at(day, 1))["created"] == 0
    _assert_exactly_once(access, recurring_id, ROUNDS)


def test_a_tick_killed_between_claim_and_materialise_loses_nothing(daily, inject):
    access, recurring_id, bucket = daily
    inject["killed"] = lambda: Killed()
    kills = 0
    for day in range(ROUNDS):
        results = _together([lambda: run_bucket(bucket, _at(day)),
                             lambda: run_bucket(bucket, _at(day))], ["killed", "healthy"])
        kills += isinstance(results[0], Killed)
        # The killed tick's claim holds a 15-minute lease; the next hourly tick takes over.
        run_bucket(bucket, _at(day, 1))
        assert _recorded_count(access) == day + 1, (day, results)
    assert kills > 0  # some rounds really died holding the slot
    _assert_exactly_once(access, recurring_id, ROUNDS)


def test_throttled_materialise_rolls_back_and_the_next_tick_records_it(daily, inject):
    access, recurring_id, bucket = daily
    throttle = ClientError({"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"}},
                           "TransactWriteItems")
    inject["throttled"] = lambda: throttle
    rolled_back = 0
    for day in range(ROUNDS):
        results = _together([lambda: run_bucket(bucket, _at(day)),
                             lambda: run_bucket(bucket, _at(day))], ["throttled", "healthy"])
        if isinstance(results[0], Exception):
            rolled_back += 1
            row = templates.load_template(access.group_id, recurring_id)
            assert row.ClaimedSlot is None  # rolled back at once, not left to the lease
        run_bucket(bucket, _at(day))  # the next tick, same hour
        assert _recorded_count(access) == day + 1, (day, results)
    assert rolled_back > 0
    _assert_exactly_once(access, recurring_id, ROUNDS)


def test_template_racing_a_participant_removal_never_names_a_removed_participant(live_db):
    access, ids = make_group(make_user("race-remove@example.com"), guests=0)
    outcomes = set()
    for round_ in range(20):
        guest = add_guest(access, display_name=f"G{round_}").ParticipantId
        body = template_body(ids[0], 200, [ids[0], guest], start="2030-01-01")
        results = _together([lambda: templates.create_template(access, as_request(body)),
                             lambda: remove_participant(access, guest)])
        created, removed = isinstance(results[0], templates.Template), results[1] is None
        assert not (created and removed), (round_, results)
        for result in results:
            assert result is None or isinstance(result, (templates.Template, Conflict)), result
        exists = Participant.count(access.group_id, Participant.SK == Participant.sort_key(guest),
                                   consistent_read=True) == 1
        assert created <= exists  # a created template's participant still exists
        outcomes.add((created, removed))
    assert outcomes <= {(True, False), (False, True)}, outcomes  # exactly one side wins
