"""Local mode's stand-ins for EventBridge schedules: the same handlers, the same event shapes."""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Optional

log = logging.getLogger("tailspend.local.triggers")
EVENTS_DIR = Path(__file__).resolve().parents[2] / "events"


def canned_event(name: str) -> dict:
    return json.loads((EVENTS_DIR / name).read_text())


def run_hourly_tick(now: Optional[str] = None) -> dict:
    """The hourly handler on the canned schedule event, stamped with ``now`` (default: now)."""
    from app.handlers import hourly
    from app.services.core.clock import now_iso

    event = canned_event("schedule_hourly.json")
    event["time"] = now or now_iso()
    return hourly.lambda_handler(event, None)


def run_maintenance() -> dict:
    from app.handlers import maintenance

    return maintenance.lambda_handler(canned_event("schedule_maintenance.json"), None)


def run_outbox_sweep() -> dict:
    """The frequent schedule: only the outbox re-dispatch."""
    from app.handlers import maintenance

    return maintenance.lambda_handler({**canned_event("schedule_maintenance.json"),
                                       "sweep": "outbox"}, None)


def run_account_deletion_resume() -> dict:
    """The account-deletion worker's 5-minute schedule: resume stalled deletions."""
    from app.handlers import account_deletion

    return account_deletion.lambda_handler(canned_event("schedule_account_deletion.json"), None)


def start_account_deletion(user_id: str) -> threading.Thread:
    """Local stand-in for AccountDeletionQueue: the worker's handler, fed the canned SQS event
    naming ``user_id``, on a thread of its own (as Lambda would, after DELETE answered 202)."""
    from app.handlers import account_deletion

    event = canned_event("account_deletion_sqs.json")
    event["Records"][0]["body"] = json.dumps({"userId": user_id})

    def run() -> None:
        try:
            account_deletion.lambda_handler(event, None)
        except Exception:  # the resume schedule picks the deletion up again
            log.exception("local.job_failed", extra={"job": "account-deletion"})

    thread = threading.Thread(target=run, name="account-deletion", daemon=True)
    thread.start()
    return thread


def start_chat_work(item: dict) -> threading.Thread:
    """Local stand-in for ChatQueue: the chat worker's handler, fed the canned SQS event
    carrying ``item``, on a thread of its own (as Lambda would, after the 202)."""
    from app.handlers import chat_worker

    event = canned_event("chat_worker_sqs.json")
    event["Records"][0]["body"] = json.dumps(item)

    def run() -> None:
        try:
            chat_worker.lambda_handler(event, None)
        except Exception:  # the reconciliation sweep re-drives the message
            log.exception("local.job_failed", extra={"job": "chat-worker"})

    thread = threading.Thread(target=run, name="chat-worker", daemon=True)
    thread.start()
    return thread


def run_chat_reconcile() -> dict:
    """The chat worker's schedule: re-drive stale work pointers."""
    from app.handlers import chat_worker

    return chat_worker.lambda_handler(canned_event("schedule_chat_reconcile.json"), None)


class Scheduler:
    """Runs each job every ``period`` seconds on a daemon thread until stopped."""

    def __init__(self) -> None:
        self._stop = threading.Event()

    def every(self, period: float, job, name: str) -> None:
        def loop() -> None:
            while not self._stop.wait(period):
                try:
                    job()
                except Exception:  # a failed run is retried next period
                    log.exception("local.job_failed", extra={"job": name})

        threading.Thread(target=loop, name=name, daemon=True).start()

    def on_the_hour(self, job, name: str) -> None:
        """Run ``job`` at the top of every hour (wall clock), as EventBridge's hourly rule does."""

        def loop() -> None:
            while not self._stop.wait(3600 - time.time() % 3600):
                try:
                    job()
                except Exception:  # a failed run is retried next hour
                    log.exception("local.job_failed", extra={"job": name})

        threading.Thread(target=loop, name=name, daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
