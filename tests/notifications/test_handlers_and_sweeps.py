"""The Lambda handlers fed events/ files: a poison record fails alone; maintenance sweeps."""
from __future__ import annotations

import json

from app.local.triggers import canned_event
from app.core.clock import today
from app.notifications import redispatch
from models.groups import Comment, Expense, GroupItem, JoinRequest
from models.notifications import Event, NotificationItem
from tests.notifications.conftest import pending_records, run_worker
from tests.notifications.test_worker import add_expense, duo, history  # noqa: F401
from tests.support.lambda_context import lambda_context

CANNED_GROUP = "3c9a1e52-6d7b-4f8e-a0c1-2b3d4e5f6a70"
CANNED_ACTOR = "9e8d7c6b-5a49-4382-b716-05f4e3d2c1b0"


def poison_batch_for(ctx) -> dict:
    """The canned poison batch, its ids pointed at a real group, its good rows in the table."""
    text = json.dumps(canned_event("notifications_stream_poison.json"))
    # Dated today: history rows expire 90 days after their event and reads hide expired rows.
    text = text.replace("2025-01-01T", today() + "T")
    batch = json.loads(text.replace(CANNED_GROUP, ctx.gid).replace(CANNED_ACTOR, ctx.olive))
    for record in batch["Records"]:
        image = record["dynamodb"]["NewImage"]
        if "EventId" in image:
            NotificationItem.from_raw_data(image).save()
    return batch


def test_a_poison_record_fails_alone_and_a_replay_adds_nothing(duo, deliver, recorder):
    deliver()
    recorder.sent.clear()
    batch = poison_batch_for(duo)
    poison = batch["Records"][1]["dynamodb"]["SequenceNumber"]
    assert run_worker(batch["Records"]) == [poison]
    bodies = [i["body"] for i in history(duo.client, duo.bob_h) if i["type"] == "EXPENSE_ADDED"]
    assert bodies == ["Olive added \u201cDinner\u201d (€45.50)."] * 2
    assert len(recorder.sent) == 2
    assert run_worker(batch["Records"]) == [poison]  # the stream retries the batch
    assert len([i for i in history(duo.client, duo.bob_h) if i["type"] == "EXPENSE_ADDED"]) == 2
    assert len(recorder.sent) == 2


def maintenance(only=None):
    from tests.handlers.test_handlers import load_handler
    event = canned_event("schedule_maintenance.json")
    if only:
        event["sweep"] = only
    return load_handler("maintenance").lambda_handler(event, lambda_context())


def test_an_event_written_while_the_worker_is_down_is_delivered_by_the_sweep(
        duo, deliver, recorder, monkeypatch):
    deliver()
    add_expense(duo, description="Missed")  # the worker is down: nobody reads the stream
    [original] = pending_records()  # what the stream carries, for the worker's late return
    assert maintenance("outbox")["redispatchedEvents"] == 0  # not yet 5 minutes old
    monkeypatch.setattr(redispatch, "STALE_SECONDS", 0)
    result = maintenance()
    assert result["redispatchedEvents"] == 1 and result["morePendingEvents"] is False
    assert [i["body"] for i in history(duo.client, duo.bob_h) if i["type"] == "EXPENSE_ADDED"] \
        == ["Olive added \u201cMissed\u201d (€45.50)."]
    assert pending_records() == []
    assert maintenance()["redispatchedEvents"] == 0
    # The worker coming back late with the original record changes nothing.
    sent = len(recorder.sent)
    assert run_worker([original]) == [] and len(recorder.sent) == sent


def test_the_outbox_sweep_is_bounded_per_run(duo, deliver, monkeypatch):
    deliver()
    for n in range(3):
        add_expense(duo, description=f"E{n}")
    monkeypatch.setattr(redispatch, "STALE_SECONDS", 0)
    first = redispatch.redispatch_pending(max_events=2)
    assert first["redispatchedEvents"] == 2 and first["morePendingEvents"] is True
    second = redispatch.redispatch_pending(max_events=2)
    assert second["redispatchedEvents"] == 1 and second["morePendingEvents"] is False


def test_orphan_comments_are_swept_in_bounded_resumable_runs(duo):
    expense = add_expense(duo)
    base = f"/groups/{duo.gid}/expenses/{expense['expenseId']}"
    for n in range(3):
        assert duo.client.post(base + "/comments", json={"body": f"c{n}"},
                               headers=duo.olive_h).status_code == 201
    # Simulate what the seed guards against: the head gone, its comments left behind.
    GroupItem(duo.gid, Expense.sort_key(expense["expenseId"])).delete()
    live = add_expense(duo, description="Live")
    duo.client.post(f"/groups/{duo.gid}/expenses/{live['expenseId']}/comments",
                    json={"body": "stays"}, headers=duo.olive_h)
    from app.ledger.orphan_comments import sweep_orphan_comments
    first = sweep_orphan_comments(max_pages=1, page_size=2)  # stops early, cursor saved
    total = first["orphanCommentsDeleted"]
    for _ in range(20):
        total += sweep_orphan_comments(max_pages=1, page_size=2)["orphanCommentsDeleted"]
    assert total == 3
    left = [row for row in GroupItem.query(duo.gid) if isinstance(row, Comment)]
    assert len(left) == 1 and left[0].Body == "stays"


def test_decided_join_requests_older_than_90_days_are_pruned(duo):
    request = JoinRequest.get(duo.gid, JoinRequest.sort_key(duo.request_id))
    assert request.Status == "APPROVED"
    from app.groups.join_request_prune import prune_decided_join_requests
    assert prune_decided_join_requests()["joinRequestsPruned"] == 0
    request.update(actions=[JoinRequest.UpdatedAt.set("2020-01-01T00:00:00.000Z")])
    assert maintenance()["joinRequestsPruned"] == 1
    assert JoinRequest.count(duo.gid, JoinRequest.SK.startswith("JOINREQ#")) == 0


def test_maintenance_reports_every_sweep(duo):
    result = maintenance()
    assert {"redispatchedEvents", "resumedGroupDeletes", "orphanCommentsDeleted",
            "joinRequestsPruned"} <= set(result)
    json.dumps(result)
    assert Event.shards()[0] == "PENDING#0" and len(Event.shards()) == 16
