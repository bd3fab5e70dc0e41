"""The outbox sweep pages through the whole backlog within a time budget, stops before the
function's timeout, and two sweeps at once write and push each event once."""
from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from app.core.clock import iso_in, new_id
from app.notifications import push, redispatch
from models.notifications import Device, Event, Notification, NotificationItem
from models.users import Profile
from tests.support.threads import together
from tests.support.lambda_context import lambda_context



def seed(count: int, recipients: int = 2) -> SimpleNamespace:
    """``count`` pending FRIEND_REQUEST events, created long ago, each naming the same
    ``recipients`` users (one device each): what a stream outage leaves behind."""
    users, old = [new_id() for _ in range(recipients)], iso_in(-3600)
    for user_id in users:  # live accounts: history is written only for those
        Profile(*Profile.key(user_id), Email=f"{user_id}@example.com", DisplayName="R").save()
    with NotificationItem.batch_write() as batch:
        for user_id in users:
            device_id = new_id()
            batch.save(Device(*Device.key(user_id, device_id), DeviceId=device_id,
                              Platform=push.IOS, Token=f"tok-{user_id}", CreatedAt=old))
        for n in range(count):
            event_id = Event.event_id("FRIEND_REQUEST", "actor", f"r{n:05d}")
            batch.save(Event(*Event.key(event_id), EventId=event_id, Type="FRIEND_REQUEST",
                             ActorUserId="actor", ResourceId=f"r{n:05d}",
                             CreatedAt=old[:-4] + f"{n % 1000:03d}Z", Recipients=set(users)))
    return SimpleNamespace(users=users, count=count)


def pending() -> int:
    return sum(1 for shard in Event.shards() for _ in Event.pending(shard, "9999"))


def history_rows(user_id: str) -> int:
    return sum(1 for _ in Notification.query("USER#" + user_id,
                                             Notification.SK.startswith("NOTIF#")))


def _handler():
    from tests.handlers.test_handlers import load_handler
    return load_handler("maintenance")


def test_one_run_takes_the_whole_backlog_not_200(app, recorder):
    backlog = seed(205, recipients=1)
    result = _handler().lambda_handler({"sweep": "outbox"}, lambda_context(300))
    assert result["redispatchedEvents"] == backlog.count and result["morePendingEvents"] is False
    assert pending() == 0 and len(recorder.sent) == backlog.count


def test_a_run_stops_starting_events_at_its_deadline_and_the_next_resumes(app, recorder):
    backlog = seed(40)
    # A container with no time left beyond the margin: nothing is started, nothing is lost.
    first = _handler().lambda_handler({"sweep": "outbox"},
                                      lambda_context(redispatch_margin() - 1))
    assert first["redispatchedEvents"] == 0 and first["morePendingEvents"] is True
    started = time.monotonic()
    second = redispatch.redispatch_pending(deadline=time.monotonic() + 0.3)
    assert time.monotonic() - started < 0.3 + 5.0  # in-flight events finish, no new ones
    assert second["morePendingEvents"] is True or second["redispatchedEvents"] == backlog.count
    rest = redispatch.redispatch_pending()
    assert second["redispatchedEvents"] + rest["redispatchedEvents"] == backlog.count
    assert rest["morePendingEvents"] is False and pending() == 0
    assert all(history_rows(user) == backlog.count for user in backlog.users)


def redispatch_margin() -> float:
    from app import maintenance
    return maintenance.DEADLINE_MARGIN_S


@pytest.mark.race
def test_two_sweeps_at_once_write_and_push_each_event_once(live_db):
    recorder = push.RecordingProvider()
    previous = push._current.get("provider")
    push.use(recorder)
    try:
        backlog = seed(30)
        first, second = together([redispatch.redispatch_pending, redispatch.redispatch_pending])
    finally:
        push._current.pop("provider", None)
        if previous is not None:
            push.use(previous)
    handled = (first["redispatchedEvents"] + second["redispatchedEvents"]
               + first["alreadyDispatchedEvents"] + second["alreadyDispatchedEvents"])
    assert handled >= backlog.count and first["failedEvents"] == second["failedEvents"] == 0
    assert pending() == 0
    assert all(history_rows(user) == backlog.count for user in backlog.users)
    assert len(recorder.sent) == backlog.count * len(backlog.users)  # each push exactly once


def test_runs_side_by_side_each_take_their_own_shards(app, recorder):
    backlog = seed(24, recipients=1)
    low = _handler().lambda_handler({"sweep": "outbox", "shards": list(range(8))}, lambda_context(300))
    left = pending()
    assert low["morePendingEvents"] is False and low["redispatchedEvents"] + left == backlog.count
    assert all(int(event.PK.split("#")[1]) >= 8
               for shard in Event.shards() for event in Event.pending(shard, "9999"))
    high = _handler().lambda_handler({"sweep": "outbox", "shards": list(range(8, 16))},
                                     lambda_context(300))
    assert high["redispatchedEvents"] == left and pending() == 0
