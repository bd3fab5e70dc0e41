"""The rest of an account deletion, after DELETE /users/me answered 202: a queue and a worker.

:func:`continue_later` hands ``{"userId"}`` to the "account-deletion" queue
(app.core.handoff; template.yaml's AccountDeletionQueue) and the AccountDeletionWorker
runs :func:`finish_deletion` through app.account.worker.handle, one account per message within WORKER_SECONDS, sending a
continuation message when even that was not enough. Locally (no queue) a runner installed by
local mode feeds the same handler an SQS-shaped event on a thread. The handler takes the SQS records
apart (Powertools' batch processor); this module sees user ids. Should a message be lost, the resume
sweep (every five minutes) finds the account by its due time."""
from __future__ import annotations

from app.errors import SoleOwner
from app.logs import logger
from app.account.budget import WORKER_SECONDS, Budget
from app.account.deletion import delete_account, resume_stalled_deletions
from app.core import handoff

QUEUE = handoff.Queue("account-deletion", lambda settings: settings.account_deletion_queue_url)


def continue_later(user_id: str) -> None:
    """Hand the rest of a started deletion to the worker (queue, or local runner)."""
    try:
        if handoff.send(QUEUE, {"userId": user_id}) != handoff.NOWHERE:
            return
    except Exception:  # noqa: BLE001 — the account is marked: the resume sweep takes it up
        logger.exception("account.delete_handoff_failed", extra={"user_id": user_id})
        return
    logger.info("account.delete_left_for_resume", extra={"user_id": user_id})


def finish_deletion(user_id: str, seconds: float = WORKER_SECONDS) -> None:
    """Run one account's deletion within ``seconds``; hand the rest on when even that was not
    enough. Raises when the run failed (its message is redelivered)."""
    try:
        if not delete_account(user_id, budget=Budget(seconds=seconds)).done:
            continue_later(user_id)
    except SoleOwner:
        # Someone joined a group of theirs meanwhile: the account was handed back.
        logger.warning("account.delete_refused", extra={"user_id": user_id})


def run_schedule(seconds: float = WORKER_SECONDS) -> dict:
    """The frequent schedule: resume deletions whose worker stalled (lost, or crashed)."""
    return resume_stalled_deletions(budget=Budget(seconds=seconds))
