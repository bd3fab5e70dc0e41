"""The chat worker's run: claim a pending message, draft, store the reply and the draft,
settle the credit and drop the work pointer, each step under an optimistic version."""
from __future__ import annotations

from app.core.i18n import N_, texts

import json
from typing import Optional

from app.limits import MAX_WORK_CLAIMS
from app.errors import Conflict
from app.chat.errors import draft_changed
from app.logs import logger
from app.credits import service as credits
from app.chat import capacity, proposals
from app.chat import context as chat_context
from app.chat.admission import ASSISTANT, DONE, FAILED, WORKING
from app.chat.drafters.base import Drafter, DrafterError
from app.chat.sessions import OPEN, load_session
from app.chat.work import STALE_SECONDS, ago, drop_pointer, load
from app.core.clock import new_id, now_iso, today
from app.core.conditional import update_if
from app.core.transactions import Transaction
from models.users import ChatDraft, ChatMessage, ChatWork

FAILED_REPLY = N_("Sorry, I couldn't draft that just now; your credit was refunded. Try again?")


def make_drafter(settings) -> Drafter:
    """The drafter ``settings.chat_drafter`` names (``rules``, ``bedrock`` or ``openai``)."""
    if settings.chat_drafter == "bedrock":
        from app.chat.drafters.bedrock import BedrockDrafter

        return BedrockDrafter(model_id=settings.chat_bedrock_model_id,
                              region=settings.chat_bedrock_region or settings.region,
                              timeout=settings.chat_drafter_timeout)
    if settings.chat_drafter == "openai":
        from app.chat.drafters.openai_compat import OpenAICompatibleDrafter

        return OpenAICompatibleDrafter(base_url=settings.chat_openai_base_url,
                                       api_key=settings.chat_openai_api_key,
                                       model=settings.chat_openai_model,
                                       timeout=settings.chat_drafter_timeout)
    from app.chat.drafters.rules import RuleDrafter

    return RuleDrafter()


class _Lost(Conflict):
    """Another run claimed or finished this message first."""


def process(item: dict, settings, drafter=None) -> str:
    """Run one admitted message to DONE or FAILED; returns what happened (for logs/tests)."""
    with capacity.metered("draft"):
        return _process(item, settings, drafter)


def _process(item: dict, settings, drafter) -> str:
    message = load(item)
    if message is None:
        return "missing"
    if message.Status in (DONE, FAILED):
        drop_pointer(message)
        return "finished"
    if message.Status == WORKING and (message.ClaimedAt or "") > ago(STALE_SECONDS):
        return "busy"
    was_working = message.Status == WORKING
    version = int(message.Version)
    claimed = update_if(message, [ChatMessage.Status.set(WORKING),
                                  ChatMessage.ClaimedAt.set(now_iso()),
                                  ChatMessage.Version.set(version + 1)],
                        ChatMessage.Version == version)
    if not claimed:
        return "lost"
    if was_working and _attempts(message) > MAX_WORK_CLAIMS:
        return _fail(message, "TIMEOUT")  # every run so far died mid-draft
    try:
        rows = load_session(message.UserId, message.SessionId)
        open_draft = rows.open_draft()
        ctx = chat_context.build(message.UserId, message.Text, today(),
                                 session_group_id=rows.session.GroupId, open_draft=open_draft,
                                 locale=message.Locale)
        if drafter is None:
            drafter = make_drafter(settings)
        checked = proposals.check(drafter.draft(ctx), ctx)
    except DrafterError as error:
        logger.warning("chat.draft_failed", extra={"reason": error.code})
        return _fail(message, error.code)
    except Exception:  # noqa: BLE001 — any other failure refunds too; the log keeps the trace
        logger.exception("chat.draft_crashed")
        return _fail(message, "UNAVAILABLE")
    return _finish(message, checked, open_draft)


def _attempts(message: ChatMessage) -> int:
    """Claims so far: the version counts admission (1) and each claim (+1)."""
    return int(message.Version) - 1


def _reply(message: ChatMessage, text: str, questions, at: str) -> ChatMessage:
    return ChatMessage(message.UserId, ChatMessage.sort_key(message.SessionId, int(message.Seq),
                                                            ASSISTANT),
                       SessionId=message.SessionId, MessageId=new_id(), Role=ASSISTANT,
                       Text=text, Status=DONE, Seq=int(message.Seq), Version=1,
                       Questions=list(questions) or None, CreatedAt=at, UpdatedAt=at)


def _finish_message(tx: Transaction, message: ChatMessage, status: str, at: str,
                    failure: Optional[str] = None) -> None:
    actions = [ChatMessage.Status.set(status), ChatMessage.UpdatedAt.set(at),
               ChatMessage.Version.set(int(message.Version) + 1), ChatMessage.WorkKey.remove()]
    if failure:
        actions.append(ChatMessage.Failure.set(failure))
    tx.update(ChatMessage(message.UserId, message.SK), actions,
              condition=ChatMessage.Version == int(message.Version), on_fail=_Lost("lost"))
    tx.delete(ChatWork(*message.work_pointer_key()))


def _fail(message: ChatMessage, reason: str) -> str:
    at = now_iso()
    tx = Transaction()
    _finish_message(tx, message, FAILED, at, failure=reason)
    tx.put(_reply(message, texts(message.Locale).gettext(FAILED_REPLY), [], at), condition=ChatMessage.SK.does_not_exist(),
           on_fail=_Lost("lost"))
    credits.refund(tx, message.UserId, int(message.Cost), at, session_id=message.SessionId,
                   message_id=message.MessageId)
    try:
        tx.commit()
    except _Lost:
        return "lost"
    return "failed"


def _finish(message: ChatMessage, checked, open_draft: Optional[ChatDraft]) -> str:
    """Store the reply and the draft (a revision of the open one when it is in the same
    group); a revision that lost to a confirmation or a discard becomes a new draft."""
    for revise in (True, False):
        at = now_iso()
        tx = Transaction()
        _finish_message(tx, message, DONE, at)
        tx.put(_reply(message, checked.reply, checked.questions, at),
               condition=ChatMessage.SK.does_not_exist(), on_fail=_Lost("lost"))
        draft_lost = draft_changed()
        if checked.expense is not None or checked.households is not None:
            # a revision stays what it was: an expense draft is never turned into a
            # household one, nor the other way round
            target = open_draft if revise and open_draft is not None and \
                open_draft.GroupId == checked.group_id and \
                open_draft.kind == _kind(checked) else None
            _store_draft(tx, message, checked, target, at, draft_lost)
        try:
            tx.commit()
            return "done"
        except _Lost:
            return "lost"
        except Conflict as error:
            if error is not draft_lost or not revise:
                raise
    return "lost"


def _kind(checked) -> str:
    return "EXPENSE" if checked.expense is not None else "HOUSEHOLD"


def _store_draft(tx: Transaction, message: ChatMessage, checked, target, at: str,
                 on_lost) -> None:
    body = checked.expense.to_draft() if checked.expense is not None else checked.households
    fields = {"Body": json.dumps(body, sort_keys=True),
              "Participants": json.dumps([{"participantId": pid, "displayName": name}
                                          for pid, name in checked.participants]),
              "Facts": json.dumps(checked.facts, sort_keys=True, default=str),
              "Questions": list(checked.questions) or None}
    if target is None:
        draft_id = new_id()
        tx.put(ChatDraft(*ChatDraft.key(message.UserId, message.SessionId, draft_id),
                         SessionId=message.SessionId, DraftId=draft_id,
                         GroupId=checked.group_id, Status=OPEN, Version=1, CreatedAt=at,
                         UpdatedAt=at, Kind=None if _kind(checked) == "EXPENSE" else "HOUSEHOLD",
                         **fields),
               condition=ChatDraft.SK.does_not_exist())
        return
    version = int(target.Version)
    actions = [getattr(ChatDraft, name).set(value) if value is not None
               else getattr(ChatDraft, name).remove() for name, value in fields.items()]
    actions += [ChatDraft.Version.set(version + 1), ChatDraft.UpdatedAt.set(at)]
    tx.update(ChatDraft(target.UserId, target.SK), actions,
              condition=(ChatDraft.Version == version) & (ChatDraft.Status == OPEN),
              on_fail=on_lost)
