"""Handing admitted chat messages to the worker, and re-driving those whose hand-off was lost.

The drafting itself is app.chat.drafting (only the ChatWorker loads it). Messages go to
the "chat" queue (app.core.handoff; template.yaml's ChatQueue) and the ChatWorker
runs app.chat.worker.handle per message; locally a runner installed by local mode feeds the same
handler an SQS-shaped event on a thread. A lost hand-off is found by :func:`reconcile`
(the work pointer stays until the finishing transaction deletes it)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Optional

from app.logs import logger
from app.chat.admission import DONE, FAILED, work_item
from app.core import handoff
from models.users import ChatMessage, ChatWork

QUEUE = handoff.Queue("chat", lambda settings: settings.chat_queue_url)
# A claim older than this is a worker that died (Lambda timeout): the message may be claimed
# again (app.chat.drafting), and a pointer this old is re-driven by the sweep.
STALE_SECONDS = 180
SWEEP_PAGE = 50


def hand_off(item: dict) -> None:
    """Give an admitted message to the worker (queue, local runner, or the sweep later)."""
    try:
        if handoff.send(QUEUE, item) == handoff.NOWHERE:
            logger.info("chat.left_for_sweep")
    except Exception:  # noqa: BLE001 — the work pointer stays: the sweep re-drives it
        logger.exception("chat.handoff_failed")


def ago(seconds: float) -> str:
    moment = datetime.now(timezone.utc) - timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def load(item: dict) -> Optional[ChatMessage]:
    try:
        return ChatMessage.get(item["userId"], item["messageKey"], consistent_read=True)
    except (ChatMessage.DoesNotExist, ValueError):
        return None


def drop_pointer(message: ChatMessage) -> None:
    key = message.work_pointer_key()
    if key:
        ChatWork(*key).delete(add_version_condition=False)


def reconcile(older_than_s: Optional[float] = None, redrive=None) -> dict:
    """Re-drive work pointers older than ``older_than_s`` by querying each service
    partition (no Scan): hand the message to the worker again, or drop a pointer whose
    message is gone (its session or account was deleted) or already finished."""
    redrive = redrive or hand_off
    before = ago(STALE_SECONDS if older_than_s is None else older_than_s)
    counts = {"chatRedriven": 0, "chatOrphansDropped": 0}
    for shard in ChatWork.shards():
        for pointer in ChatWork.older_than(shard, before, limit=SWEEP_PAGE):
            if pointer.is_receipt_scan:
                continue  # app.receipts.scanning.reconcile re-drives those
            item = {"userId": pointer.OwnerUserId, "sessionId": pointer.SessionId,
                    "messageId": pointer.MessageId, "messageKey": pointer.MessageSK}
            message = load(item)
            if message is None or message.Status in (DONE, FAILED):
                pointer.delete(add_version_condition=False)
                counts["chatOrphansDropped"] += 1
            else:
                redrive(work_item(message))
                counts["chatRedriven"] += 1
    return counts
