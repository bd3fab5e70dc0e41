"""E-mail digests (docs/email.md "Digests"): the maintenance handler on its canned digests
event, moto for DynamoDB, a real SMTP server; one e-mail per reader and period, in their
language, none when nothing changed, once however many runs."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import pytest

from app.handlers import maintenance
from app.insight.digests import last_period, send_digests
from app.local.triggers import canned_event
from app.notifications.preferences import DIGEST_TYPE
from app.notifications.unsubscribe import unsubscribe_token
from models.notifications import DIGEST_SHARDS, DigestSent, DigestSubscriber, NotificationItem
from models.users import Profile
from tests.notifications.test_email import ONE_CLICK, inbox, smtp, unsubscribe_path  # noqa: F401
from tests.notifications.test_worker import add_expense, duo  # noqa: F401 — fixture
from tests.support.lambda_context import lambda_context


def tomorrow() -> str:
    return (datetime.now(timezone.utc) + timedelta(days=1)).strftime("%Y-%m-%dT00:30:00Z")


def run_digests(now: str = None, remaining_s: float = None) -> dict:
    """The real handler on the template's digests event (``time`` as an operator adds it)."""
    event = canned_event("schedule_digests.json")
    event["time"] = now or tomorrow()
    return maintenance.lambda_handler(event, lambda_context(remaining_s))


def subscribe(ctx, headers, digest="DAILY", locale=None) -> None:
    if locale:
        assert ctx.client.patch("/users/me", json={"locale": locale},
                                headers=headers).status_code == 200
    reply = ctx.client.patch("/notifications/preferences", json={"digest": digest},
                             headers=headers)
    assert reply.status_code == 200 and reply.get_json()["digest"] == digest, reply.get_json()


def subscribers(period: str) -> set:
    return {row.UserId for shard in DigestSubscriber.shards(period)
            for row in DigestSubscriber.query(shard)}


def test_the_preference_writes_and_moves_the_subscriber_row(duo):
    subscribe(duo, duo.bob_h, "DAILY")
    assert (subscribers("DAILY"), subscribers("WEEKLY")) == ({duo.bob}, set())
    subscribe(duo, duo.bob_h, "WEEKLY")
    assert (subscribers("DAILY"), subscribers("WEEKLY")) == (set(), {duo.bob})
    subscribe(duo, duo.bob_h, "NONE")
    assert (subscribers("DAILY"), subscribers("WEEKLY")) == (set(), set())


def test_a_daily_digest_in_the_readers_language_once_however_many_runs(duo, smtp, deliver):
    deliver()
    subscribe(duo, duo.bob_h, "DAILY", locale="de")
    add_expense(duo, amount=8500, description="Pizza")  # Bob's share: 42,50 €
    deliver()
    first = run_digests()
    assert first["digestsSent"] == 1 and first["moreDigests"] is False
    [message] = inbox()
    assert message["to"] == ["bob@example.com"]
    assert message["subject"].startswith("Dein TailSpend-Tag: ")
    assert "Was sich geändert hat" in message["text"] and "Lisbon" in message["text"]
    assert "„Pizza“ (85,00 €)" in message["text"]
    assert "Lisbon: Du schuldest 42,50 €" in message["text"]
    assert "Du schuldest Olive 42,50 €" in message["text"]
    assert "42,50 €" in message["html"] and '<html lang="de">' in message["html"]
    assert message["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "Zusammenfassungen abbestellen" in message["text"]
    second = run_digests()  # a retried or doubled schedule
    assert second["digestsSent"] == 0
    assert len(inbox()) == 1
    # Olive wrote the expense: her history holds nothing of it, and she asked for no digest
    assert all("olive@example.com" not in m["to"] for m in inbox())


def test_none_when_nothing_changed_in_the_period(duo, smtp, deliver):
    deliver()  # Bob's approval: his history's first row, today
    subscribe(duo, duo.bob_h, "DAILY")
    today = datetime.now(timezone.utc).strftime("%Y-%m-%dT00:30:00Z")
    result = run_digests(today)  # yesterday: nothing happened
    assert (result["digestsSent"], result["digestsUnchanged"]) == (0, 1)
    add_expense(duo)
    deliver()
    # today's rows: a run on the day after tomorrow covers tomorrow, empty
    later = (datetime.now(timezone.utc) + timedelta(days=2)).strftime("%Y-%m-%dT00:30:00Z")
    assert run_digests(later)["digestsUnchanged"] == 1
    assert inbox() == []


def test_two_runs_at_once_send_one_email(duo, smtp, deliver):
    """The marker row is created under attribute_not_exists before anything is read: two
    runs released together (real threads) both walk the subscriber, one sends."""
    deliver()
    subscribe(duo, duo.bob_h, "DAILY")
    add_expense(duo)
    deliver()
    start, results = threading.Barrier(2), []

    def run() -> None:
        start.wait()
        results.append(send_digests(now=tomorrow()))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r["digestsSent"] for r in results) == [0, 1]
    assert len(inbox()) == 1


def test_names_and_descriptions_cannot_inject_html(duo, smtp, deliver):
    deliver()
    duo.client.patch(f"/groups/{duo.gid}", json={"name": "<b>Trip</b>"}, headers=duo.olive_h)
    subscribe(duo, duo.bob_h, "DAILY")
    add_expense(duo, description='<img src=x onerror="alert(1)">')
    deliver()
    assert run_digests()["digestsSent"] == 1
    [message] = inbox()
    assert "<img" not in message["html"] and "<b>Trip" not in message["html"]
    assert "&lt;img src=x onerror=" in message["html"]
    assert '<img src=x onerror="alert(1)">' in message["text"]  # plain text is shown as is


def test_a_removed_member_gets_nothing_of_that_group(duo, smtp, deliver):
    deliver()
    subscribe(duo, duo.bob_h, "DAILY")
    body = {"description": "Olive's own", "date": "2026-05-01", "amount": 1000,
            "payments": [{"participantId": duo.olive_pid, "amount": 1000}],
            "splitMode": "EQUAL", "splits": [{"participantId": duo.olive_pid}]}
    assert duo.client.post(f"/groups/{duo.gid}/expenses", json=body,
                           headers=duo.olive_h).status_code == 201
    deliver()  # Bob's history now holds the expense of Lisbon
    other = duo.client.post("/groups", json={"name": "Home", "currency": "EUR"},
                            headers=duo.bob_h).get_json()
    left = duo.client.post(f"/groups/{duo.gid}/leave", headers=duo.bob_h)
    assert left.status_code in (200, 204), left.get_json()
    result = run_digests()
    assert (result["digestsSent"], result["digestsUnchanged"]) == (0, 1)
    assert inbox() == []
    assert other["groupId"]


def test_unverified_or_gone_readers_get_none_and_a_gone_one_loses_the_row(duo, smtp, deliver):
    deliver()
    subscribe(duo, duo.bob_h, "DAILY")
    subscribe(duo, duo.olive_h, "DAILY")
    add_expense(duo)
    deliver()
    Profile(*Profile.key(duo.bob)).update(actions=[Profile.EmailVerified.set(False)])
    Profile(*Profile.key(duo.olive)).delete()
    result = run_digests()
    assert (result["digestsSent"], result["digestsSkipped"]) == (0, 1)
    assert inbox() == []
    assert subscribers("DAILY") == {duo.bob}


def test_one_click_turns_the_digest_off(duo, smtp, deliver):
    deliver()
    subscribe(duo, duo.bob_h, "DAILY")
    add_expense(duo)
    deliver()
    run_digests()
    [message] = inbox()
    assert duo.client.post(unsubscribe_path(message), data=ONE_CLICK).status_code == 200
    prefs = duo.client.get("/notifications/preferences", headers=duo.bob_h).get_json()
    assert prefs["digest"] == "NONE"
    assert prefs["types"]["EXPENSE_ADDED"]["push"] is True
    assert subscribers("DAILY") == set()  # no row: the next runs do not even read Bob


def test_a_digest_token_does_not_switch_an_event_types_email(duo):
    reply = duo.client.post(f"/unsubscribe?token={unsubscribe_token(duo.bob, DIGEST_TYPE)}",
                            data=ONE_CLICK)
    assert reply.status_code == 200
    prefs = duo.client.get("/notifications/preferences", headers=duo.bob_h).get_json()
    assert prefs["digest"] == "NONE" and prefs["types"]["EXPENSE_ADDED"]["push"] is True


def test_a_run_past_its_deadline_leaves_the_rest_to_the_next(duo, smtp, deliver):
    deliver()
    subscribe(duo, duo.bob_h, "DAILY")
    add_expense(duo)
    deliver()
    # less time left than the margin kept back: no send starts
    cut = run_digests(remaining_s=maintenance_margin() - 1)
    assert (cut["digestsSent"], cut["moreDigests"]) == (0, True)
    assert inbox() == []
    resumed = run_digests()
    assert (resumed["digestsSent"], resumed["moreDigests"]) == (1, False)
    assert len(inbox()) == 1


def maintenance_margin() -> float:
    from app.maintenance import DEADLINE_MARGIN_S

    return DEADLINE_MARGIN_S


def test_a_digest_reads_one_history_query_per_reader(duo, smtp, deliver):
    """The bench's claim (bench/digest_bench.py): per reader and period one Query of
    the notifications table (the history), one conditional PutItem (the marker)."""
    import boto3

    from bench.dynamo_meter import Meter

    deliver()
    subscribe(duo, duo.bob_h, "DAILY")
    add_expense(duo)
    add_expense(duo, description="Second")
    deliver()
    meter = Meter(boto3.client("dynamodb", region_name="us-east-1"))
    meter.hook_models()
    with meter.block() as bill:
        assert send_digests(now=tomorrow())["digestsSent"] == 1
    # The run's own walk: each period's subscriber shards (DIGEST_SHARDS Queries, the weekly
    # one empty here), whatever the number of readers. Bob's: one Query of his history, one
    # of his memberships (UserParticipantsIndex), which also decides what he may be shown.
    assert bill.calls["Query"] == 2 * DIGEST_SHARDS + 1 + 1, bill.calls_text()
    # his marker; where the daily walk is after his page (none when his shard is the last,
    # whose page ends the walk), then each period's "done"
    assert bill.calls["PutItem"] in (1 + 2, 1 + 1 + 2), bill.calls_text()


@pytest.mark.parametrize("now, kind, start, end", [
    ("2026-12-05T00:30:00Z", "DAILY", "2026-12-04", "2026-12-05"),
    ("2026-12-05T23:59:59Z", "DAILY", "2026-12-04", "2026-12-05"),
    ("2026-12-07T00:10:00Z", "WEEKLY", "2026-11-30", "2026-12-07"),  # a Monday
    ("2026-12-06T12:00:00Z", "WEEKLY", "2026-11-23", "2026-11-30"),  # a Sunday
    ("2027-01-01T01:00:00Z", "WEEKLY", "2026-12-21", "2026-12-28"),
])
def test_periods_are_utc_days_and_iso_weeks(now, kind, start, end):
    period = last_period(kind, datetime.fromisoformat(now.replace("Z", "+00:00")))
    assert (period.start.date().isoformat(), period.end.date().isoformat()) == (start, end)
    assert period.start.tzinfo == timezone.utc


def test_the_marker_expires_and_names_its_period(duo, smtp, deliver):
    deliver()
    subscribe(duo, duo.bob_h, "WEEKLY")
    add_expense(duo)
    deliver()
    next_week = (datetime.now(timezone.utc) + timedelta(days=7)).strftime("%Y-%m-%dT01:00:00Z")
    assert run_digests(next_week)["digestsSent"] == 1
    period = last_period("WEEKLY", datetime.fromisoformat(next_week.replace("Z", "+00:00")))
    raw = NotificationItem.raw_get(*DigestSent.key(duo.bob, period.key))
    marker = DigestSent.from_raw(raw)
    assert marker.Period.startswith("WEEKLY#") and marker.ExpiresAt > period.end.timestamp()
    assert inbox()[0]["subject"].startswith("Your TailSpend week: ")


def test_deleting_the_account_removes_its_subscriber_row(duo):
    from app.account import deletion

    subscribe(duo, duo.bob_h, "WEEKLY")
    subscribe(duo, duo.olive_h, "DAILY")
    deletion.delete_account(duo.bob)
    assert (subscribers("DAILY"), subscribers("WEEKLY")) == ({duo.olive}, set())
