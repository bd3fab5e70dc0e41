"""DELETE /users/me within a bound: 204 when the sweep finishes inside the request's budget,
else 202 `{status: DELETING}` and the account-deletion worker (fed events/*.json, as
`sam local invoke -e` would) finishes it; a worker run that runs out sends a continuation;
local mode runs the worker on a thread through the same handler; the 5-minute schedule
resumes deletions nobody is working on."""
from __future__ import annotations

import json

import pytest

from app.local import triggers
from app.account import deletion, finish_deletion
from app.core import handoff
from app.core.clock import iso_in
from app.groups import delete as group_delete
from models.people import HandleClaim
from models.users import Profile
from tests.account.test_deletion import _assert_all_gone
from tests.support.lambda_context import lambda_context


def _sqs_event(user_id: str) -> dict:
    event = triggers.canned_event("account_deletion_sqs.json")
    event["Records"][0]["body"] = json.dumps({"userId": user_id})
    return event


@pytest.fixture
def handler():
    from app.handlers import account_deletion

    return account_deletion


@pytest.fixture
def continuations():
    """What the API or a worker run hands on, captured instead of a queue."""
    sent: list = []
    handoff.use_local_runner("account-deletion", lambda message: sent.append(message["userId"]))
    yield sent
    handoff.use_local_runner("account-deletion", None)


@pytest.fixture
def small_request_budget(generous_request_budget):
    runtime = generous_request_budget
    runtime.settings = runtime.settings._replace(account_delete_units=3)
    return runtime


def test_a_deletion_past_the_request_budget_is_202_and_the_worker_finishes_it(
        client, world, directory, small_request_budget, continuations, handler):
    reply = client.delete("/users/me", headers=world.dora_h)

    assert reply.status_code == 202
    assert reply.get_json() == {"status": "DELETING"}
    assert continuations == [world.dora]  # handed to the worker
    assert client.get("/users/me", headers=world.dora_h).status_code == 401  # gone already
    assert Profile.get(*Profile.key(world.dora)).deleting

    assert handler.lambda_handler(_sqs_event(world.dora), lambda_context()) == {"batchItemFailures": []}
    _assert_all_gone(world, directory)
    assert Profile.count(world.dora) == 0


def test_the_request_budget_bounds_the_work_done_inside_it(
        client, world, small_request_budget, continuations):
    """Three units: the mark and the first steps, nothing of the later steps."""
    assert client.delete("/users/me", headers=world.dora_h).status_code == 202
    profile = Profile.get(*Profile.key(world.dora))
    assert HandleClaim.raw_get(*HandleClaim.key(profile.Handle)) is not None  # not reached
    assert profile.DeletionStep in [name for name, _ in deletion.STEPS[1:5]]


def test_a_worker_run_out_of_budget_hands_the_rest_on(world, directory, continuations):
    deletion.steps.mark(Profile.get(*Profile.key(world.dora)))
    finish_deletion.finish_deletion(world.dora, seconds=0)
    assert continuations == [world.dora]
    assert Profile.get(*Profile.key(world.dora)).deleting
    finish_deletion.finish_deletion(world.dora)
    _assert_all_gone(world, directory)


def test_a_large_solo_group_is_swept_a_few_pages_per_unit(world, directory, monkeypatch):
    """A big group the user is alone in cannot hold one run past its budget: its sweep goes
    a few pages per unit, and the runs after finish it."""
    monkeypatch.setattr(group_delete, "QUERY_PAGE_SIZE", 3)  # head + last rows: one page
    monkeypatch.setattr(deletion.steps, "GROUP_SWEEP_PAGES", 1)
    runs = 0
    while not deletion.delete_account(world.dora,
                                      budget=deletion.Budget(units=4)).done:
        runs += 1
        assert runs < 60
    assert runs > 3
    _assert_all_gone(world, directory)


def test_local_mode_runs_the_worker_handler_on_a_thread(world, directory):
    deletion.steps.mark(Profile.get(*Profile.key(world.dora)))
    thread = triggers.start_worker("account-deletion", {"userId": world.dora})
    thread.join(timeout=120)
    assert not thread.is_alive()
    _assert_all_gone(world, directory)


def test_the_schedule_resumes_a_stalled_deletion(world, directory, handler):
    deletion.steps.mark(Profile.get(*Profile.key(world.dora)))  # then the worker was lost
    schedule = triggers.canned_event("schedule_account_deletion.json")
    assert handler.lambda_handler(schedule, lambda_context()) == {"resumedAccountDeletes": 0,
                                                      "failedAccountDeletes": 0}  # not due
    Profile(*Profile.key(world.dora)).update(actions=[Profile.RecoveryDueAt.set(iso_in(-1))])
    assert handler.lambda_handler(schedule, lambda_context()) == {"resumedAccountDeletes": 1,
                                                      "failedAccountDeletes": 0}
    _assert_all_gone(world, directory)


def test_a_worker_message_for_a_finished_deletion_is_a_no_op(handler, aws):
    assert handler.lambda_handler(_sqs_event("0b6e6f3c-2d4b-4a57-9f1e-6a3c2b1d0e99"),
                                  lambda_context()) == {"batchItemFailures": []}


def test_a_failed_deletion_run_reports_only_its_own_message(handler, world):
    """Powertools' batch processor in the handler: the failing record is redelivered alone."""
    event = _sqs_event(world.dora)
    good = dict(event["Records"][0], messageId="good-message")
    bad = dict(event["Records"][0], messageId="bad-message", body='{"no": "user"}')

    result = handler.lambda_handler({"Records": [good, bad]}, lambda_context())

    assert result == {"batchItemFailures": [{"itemIdentifier": "bad-message"}]}



def test_a_lone_failed_message_is_reported_not_raised(handler):
    event = _sqs_event("0b6e6f3c-2d4b-4a57-9f1e-6a3c2b1d0e99")
    bad = dict(event["Records"][0], messageId="bad-message", body="not json")

    assert handler.lambda_handler({"Records": [bad]}, lambda_context()) == {
        "batchItemFailures": [{"itemIdentifier": "bad-message"}]}
