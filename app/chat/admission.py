"""Admitting a message: its credits, the session, the ledger, the counters and a work
pointer in one conditional transaction (the profile checked live in it too)."""
from __future__ import annotations

import random
import time
from typing import Optional

from app.credits import service as credits
from app.errors import Conflict, concurrent_update
from app.chat.errors import chat_session_full
from app.chat import capacity
from app.chat.sessions import load_session
from app.core.clock import new_id, now_iso
from app.core.transactions import Transaction
from models.users import ChatMessage, ChatSession, ChatWork

USER, ASSISTANT = "USER", "ASSISTANT"
PENDING, WORKING, DONE, FAILED = "PENDING", "WORKING", "DONE", "FAILED"
MAX_MESSAGES = 200  # per session (a user message and its reply count two)
ATTEMPTS = 8  # admissions lost to a parallel one are retried with jitter, then 409


class _Lost(Conflict):
    """A parallel admission changed the balance or the session first: read again."""


def post_message(user_id: str, session_id: str, text: str, *, monthly: int,
                 cost: int, locale: Optional[str] = None) -> ChatMessage:
    """Admit ``text`` (PENDING) or raise 402 INSUFFICIENT_CREDITS; the caller hands the
    returned message to the worker."""
    with capacity.metered("admit"):
        return _admit(user_id, session_id, text, monthly=monthly, cost=cost, locale=locale)


def _admit(user_id: str, session_id: str, text: str, *, monthly: int, cost: int,
           locale: Optional[str]) -> ChatMessage:
    for attempt in range(ATTEMPTS):
        rows = load_session(user_id, session_id)
        session = rows.session
        if 2 * int(session.MessageCount) + 2 > MAX_MESSAGES:
            raise chat_session_full(MAX_MESSAGES)
        at = now_iso()
        now = credits.standing(user_id, at, monthly)
        if now.balance < cost:
            raise credits.insufficient_credits(now.balance, cost)
        message = _message(user_id, session, text, at, cost)
        message.Locale = locale
        tx = Transaction().require_live_account(user_id)
        lost = _Lost("Lost to a parallel message.")
        tx.update(ChatSession(*ChatSession.key(user_id, session_id)),
                  [ChatSession.MessageCount.set(message.Seq),
                   ChatSession.Version.set(int(session.Version) + 1),
                   ChatSession.UpdatedAt.set(at)],
                  condition=ChatSession.Version == int(session.Version), on_fail=lost)
        message.CostFree = credits.reserve(tx, user_id, now, cost, at, monthly=monthly,
                                           session_id=session_id,
                                           message_id=message.MessageId, on_lost=lost)
        tx.put(message, condition=ChatMessage.SK.does_not_exist(), on_fail=lost)
        tx.put(_pointer(message), condition=ChatWork.SK.does_not_exist())
        try:
            tx.commit()
            return message
        except _Lost:
            time.sleep(random.uniform(0, 0.02 * 2 ** min(attempt, 4)))
    raise concurrent_update("Too many messages at once; try again.")


def _message(user_id: str, session, text: str, at: str, cost: int) -> ChatMessage:
    seq = int(session.MessageCount) + 1
    message = ChatMessage(user_id, ChatMessage.sort_key(session.SessionId, seq, USER),
                          SessionId=session.SessionId, MessageId=new_id(), Role=USER, Text=text,
                          Status=PENDING, Seq=seq, Version=1, Cost=cost, CostFree=0,
                          Period=credits.period_of(at), CreatedAt=at, UpdatedAt=at)
    message.point_at(_pointer(message))
    return message


def _pointer(message: ChatMessage) -> ChatWork:
    return ChatWork.build(message.UserId, message.SessionId, message.MessageId, message.SK,
                          message.CreatedAt)


def work_item(message: ChatMessage) -> dict:
    """What the worker is handed (the queue message body): ids and keys, never text."""
    return {"userId": message.UserId, "sessionId": message.SessionId,
            "messageId": message.MessageId, "messageKey": message.SK}
