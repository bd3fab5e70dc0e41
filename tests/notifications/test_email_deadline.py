"""E-mails within a shared deadline: a worker invocation sends until the Lambda context's time
(or MAIL_SEND_BUDGET_S locally) runs out, leaves the rest on the outbox event, and the outbox
sweep sends exactly those, once per recipient."""
from __future__ import annotations

import threading

import pytest

from app.handlers import notifications
from app.notifications import redispatch
from app.notifications.mail import SMTP_TIMEOUT_S
from models.notifications import Event, NotificationItem
from tests.notifications.conftest import pending_records
from tests.notifications.test_email import email_on, inbox, smtp  # noqa: F401 — fixture
from tests.notifications.test_worker import add_expense, duo, history  # noqa: F401 — fixture
from tests.support.lambda_context import lambda_context
from tests.support.settings import installed


def outbox() -> list:
    return [event for shard in Event.shards() for event in Event.pending(shard, "9999")]


@pytest.fixture
def sweep_now(monkeypatch):
    """The sweep takes events as soon as they are written (it waits STALE_SECONDS for the
    stream worker otherwise)."""
    monkeypatch.setattr(redispatch, "STALE_SECONDS", 0)
    return lambda: redispatch.redispatch_pending()


def test_no_email_starts_past_the_invocations_deadline_and_the_sweep_sends_it_once(
        duo, smtp, deliver, recorder, sweep_now):
    deliver()
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    add_expense(duo)
    records = pending_records()
    # less left than the handler's margin and one SMTP timeout: no send may start
    context = lambda_context(notifications.END_MARGIN_S + SMTP_TIMEOUT_S - 1)
    result = notifications.lambda_handler({"Records": records}, context)
    assert result == {"batchItemFailures": []}
    assert inbox() == []
    assert history(duo.client, duo.bob_h)[0]["type"] == "EXPENSE_ADDED"  # the row is written
    [left] = outbox()
    assert left.MailPending == {duo.bob}
    pushed = len(recorder.sent)

    assert sweep_now()["redispatchedEvents"] == 1
    [message] = inbox()
    assert message["to"] == ["bob@example.com"]
    assert outbox() == []  # done: out of the outbox
    assert len(recorder.sent) == pushed  # nothing else repeated: no second push, no new row
    assert len([item for item in history(duo.client, duo.bob_h)
                if item["type"] == "EXPENSE_ADDED"]) == 1
    assert sweep_now()["redispatchedEvents"] == 0
    assert len(inbox()) == 1


def test_locally_the_budget_setting_bounds_the_sends(duo, smtp, deliver, recorder, sweep_now):
    deliver()
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    add_expense(duo)
    with installed(mail_send_budget_s=0.0):
        deliver()
    assert inbox() == [] and [e.MailPending for e in outbox()] == [{duo.bob}]
    sweep_now()
    assert len(inbox()) == 1 and outbox() == []


def test_two_sweeps_at_once_send_a_left_email_once(duo, smtp, deliver, recorder, sweep_now):
    deliver()
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    add_expense(duo)
    with installed(mail_send_budget_s=0.0):
        deliver()
    [event] = outbox()
    raw = NotificationItem.raw_get(event.PK, event.SK)
    start = threading.Barrier(2)

    def dispatch_it() -> None:
        from app.notifications.dispatch import dispatch

        start.wait()
        dispatch(NotificationItem.from_raw_data(raw))  # both hold the row as read

    threads = [threading.Thread(target=dispatch_it) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(inbox()) == 1  # the conditional take out of MailPending lets one send
    assert outbox() == []


def test_a_left_recipient_who_switched_email_off_meanwhile_gets_none(
        duo, smtp, deliver, recorder, sweep_now):
    deliver()
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    add_expense(duo)
    with installed(mail_send_budget_s=0.0):
        deliver()
    reply = duo.client.patch("/notifications/preferences",
                             json={"types": {"EXPENSE_ADDED": {"email": False}}},
                             headers=duo.bob_h)
    assert reply.status_code == 200
    sweep_now()
    assert inbox() == [] and outbox() == []
