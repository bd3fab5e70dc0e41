"""The worker through its handler (fed events/*.json): a failed or timed-out draft refunds,
a run that died is re-claimed once, the reconcile sweep re-drives lost hand-offs from the
service partitions and drops orphaned pointers, and account deletion removes every chat row."""
from __future__ import annotations

import json
import pytest

from app.local import triggers
from app.chat import drafting, work
from app.core import handoff
from app.chat.drafters.base import DrafterError
from models.users import (CHAT_PREFIX, ChatMessage, ChatWork, LEDGER_PREFIX, UserItem)
from tests.chat.conftest import make_chat
from tests.support.lambda_context import lambda_context


class Failing:
    def __init__(self, code="TIMEOUT"):
        self.code = code

    def draft(self, context):
        raise DrafterError(self.code)


@pytest.fixture
def queued():
    """Hand-offs captured instead of a queue: the test runs the worker itself."""
    sent: list = []
    handoff.use_local_runner("chat", sent.append)
    yield sent
    handoff.use_local_runner("chat", None)


@pytest.fixture
def handler():
    from app.handlers import chat_worker

    return chat_worker


def _sqs(item: dict) -> dict:
    event = triggers.canned_event("chat_worker_sqs.json")
    event["Records"][0]["body"] = json.dumps(item)
    return event


def _pointers() -> list:
    return [p for shard in ChatWork.shards() for p in ChatWork.query(shard)]


def _balance(chat) -> int:
    return chat.client.get("/users/me/credits", headers=chat.headers).get_json()["balance"]


def test_the_handler_drafts_the_queued_message_from_the_canned_event(client, sign_in, queued,
                                                                     handler):
    chat = make_chat(client, sign_in)
    sid = chat.session()
    chat.say(sid, "I paid 12 for coffee with Ann")
    (item,) = queued
    assert set(item) == {"userId", "sessionId", "messageId", "messageKey"}  # no text
    assert len(_pointers()) == 1
    assert handler.lambda_handler(_sqs(item), lambda_context()) == {"batchItemFailures": []}
    session = chat.read(sid)
    assert session["messages"][0]["status"] == "DONE" and len(session["drafts"]) == 1
    assert _pointers() == []
    # Redelivered: nothing happens twice.
    handler.lambda_handler(_sqs(item), lambda_context())
    assert len(chat.read(sid)["messages"]) == 2


def test_a_failed_draft_refunds_and_drops_the_pointer(client, sign_in, queued, settings):
    chat = make_chat(client, sign_in)
    sid = chat.session()
    before = _balance(chat)
    chat.say(sid, "I paid 12 for coffee")
    assert _balance(chat) == before - settings.chat_message_credits
    assert drafting.process(queued[0], settings, drafter=Failing("REFUSED")) == "failed"
    session = chat.read(sid)
    assert [m["status"] for m in session["messages"]] == ["FAILED", "DONE"]
    assert session["drafts"] == []
    assert _balance(chat) == before
    reasons = [e["reason"] for e in client.get("/users/me/credits",
                                              headers=chat.headers).get_json()["items"]]
    assert "REFUND" in reasons
    assert _pointers() == []


def test_a_run_that_died_is_claimed_again_then_fails_and_refunds(client, sign_in, queued,
                                                                 settings, monkeypatch):
    chat = make_chat(client, sign_in)
    sid = chat.session()
    before = _balance(chat)
    chat.say(sid, "I paid 12 for coffee")
    item = queued[0]
    message = ChatMessage.get(item["userId"], item["messageKey"])
    message.update(actions=[ChatMessage.Status.set("WORKING"),
                            ChatMessage.ClaimedAt.set("2000-01-01T00:00:00.000Z"),
                            ChatMessage.Version.set(2)])
    # A fresh claim by someone else is left alone.
    monkeypatch.setattr(drafting, "STALE_SECONDS", 10 ** 10)
    assert drafting.process(item, settings, drafter=Failing()) == "busy"
    monkeypatch.setattr(drafting, "STALE_SECONDS", 0)
    # Second run (the first died): allowed, and here it succeeds.
    assert drafting.process(item, settings) == "done"
    assert chat.read(sid)["messages"][0]["status"] == "DONE"
    # A third claim of a message whose every run died is refused and refunded.
    chat.say(sid, "I paid 13 for tea")
    item = queued[1]
    message = ChatMessage.get(item["userId"], item["messageKey"])
    message.update(actions=[ChatMessage.Status.set("WORKING"),
                            ChatMessage.ClaimedAt.set("2000-01-01T00:00:00.000Z"),
                            ChatMessage.Version.set(3)])
    assert drafting.process(item, settings) == "failed"
    assert _balance(chat) == before - 1


def test_reconcile_redrives_lost_handoffs_and_drops_orphans(client, sign_in, settings, handler,
                                                            monkeypatch):
    handoff.use_local_runner("chat", None)  # the hand-off is lost: nobody drafts
    chat = make_chat(client, sign_in)
    sid = chat.session()
    chat.say(sid, "I paid 12 for coffee")
    assert len(_pointers()) == 1
    monkeypatch.setattr(work, "STALE_SECONDS", 0)
    # An orphan: a pointer whose message (and session) are gone.
    ChatWork.build("ghost-user", "s", "m", "CHAT#s#M#000001#0", "2000-01-01T00:00:00.000Z").save()
    result = triggers.run_chat_reconcile()
    assert result == {"chatRedriven": 1, "chatOrphansDropped": 1}
    assert chat.read(sid)["messages"][0]["status"] == "DONE"
    assert _pointers() == []


def test_maintenance_redrives_through_the_hand_off(client, sign_in, queued, monkeypatch):
    from app.maintenance import run_maintenance

    chat = make_chat(client, sign_in)
    sid = chat.session()
    chat.say(sid, "I paid 12 for coffee")
    queued.clear()
    monkeypatch.setattr(work, "STALE_SECONDS", 0)
    assert run_maintenance("chatWork") == {"chatRedriven": 1, "chatOrphansDropped": 0}
    assert [i["sessionId"] for i in queued] == [sid]


def test_account_deletion_removes_every_chat_row(client, sign_in, queued, settings):
    chat = make_chat(client, sign_in)
    sid = chat.session()
    chat.say(sid, "I paid 12 for coffee with Ann")
    drafting.process(queued[0], settings)
    chat.say(sid, "I paid 5 for tea")  # left pending: its pointer is outside the partition
    assert _pointers()
    gone = client.delete("/users/me", headers=chat.headers)
    assert gone.status_code in (202, 204)
    rows = [r.SK for r in UserItem.query(chat.user_id)]
    assert not [sk for sk in rows if sk.startswith((CHAT_PREFIX, LEDGER_PREFIX, "BALANCE"))]
    assert _pointers() == []


def test_capacity_is_logged_per_message_without_keys_or_text(client, sign_in, queued, settings,
                                                             caplog):
    chat = make_chat(client, sign_in)
    sid = chat.session()
    chat.say(sid, "I paid 12 for coffee with Ann")
    from app.logs import logger

    level = logger.log_level
    logger.setLevel("INFO")
    try:
        drafting.process(queued[0], settings)
    finally:
        logger.setLevel(level)
    lines = [r for r in caplog.records if r.getMessage() == "chat.capacity"]
    assert len(lines) == 1
    line = lines[0].__dict__
    assert line["phase"] == "draft" and line["calls"] >= 3
    assert line["writeUnits"] > 0 and line["readUnits"] > 0
    text = json.dumps({k: line[k] for k in ("phase", "calls", "readUnits", "writeUnits",
                                             "operations")})
    assert chat.user_id not in text and "coffee" not in text and sid not in text


def test_local_mode_drafts_on_a_thread_through_the_handler(client, sign_in, queued):
    chat = make_chat(client, sign_in)
    sid = chat.session()
    chat.say(sid, "I paid 12 for coffee with Ann")
    triggers.start_worker("chat", queued[0]).join(timeout=30)
    assert chat.read(sid)["messages"][0]["status"] == "DONE"
