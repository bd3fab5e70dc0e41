"""Local mode's stand-ins for EventBridge schedules: the same handlers, the same event shapes."""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Optional

from app.local.context import LocalContext

log = logging.getLogger("tailspend.local.triggers")
EVENTS_DIR = Path(__file__).resolve().parents[2] / "events"


def canned_event(name: str) -> dict:
    return json.loads((EVENTS_DIR / name).read_text())


def run_hourly_tick(now: Optional[str] = None) -> dict:
    """The hourly handler on the canned schedule event, stamped with ``now`` (default: now)."""
    from app.handlers import hourly
    from app.core.clock import now_iso

    event = canned_event("schedule_hourly.json")
    event["time"] = now or now_iso()
    return hourly.lambda_handler(event, LocalContext("hourly"))


def run_projection_backfill(report=None, cursor: Optional[dict] = None) -> dict:
    """The projection's one-off backfill (app/insight/backfill.py) through the Projection
    handler, as an operator runs it in AWS: calls on the canned event, each handed the last
    one's cursor, until done; ``report`` sees each call's answer."""
    from app.handlers import projection

    request, total = canned_event("backfill_projection.json"), 0
    if cursor is not None:
        request["backfillProjection"]["cursor"] = cursor
    while True:
        answer = projection.lambda_handler(request, LocalContext("projection"))
        total += answer["groups"]
        if report is not None:
            report(answer)
        if answer["done"]:
            return {"groups": total, "done": True}
        request["backfillProjection"]["cursor"] = answer["cursor"]


def run_maintenance() -> dict:
    from app.handlers import maintenance

    return maintenance.lambda_handler(canned_event("schedule_maintenance.json"),
                                       LocalContext("maintenance"))


def run_digests(now: Optional[str] = None) -> dict:
    """The digests' schedule (its constant input, as EventBridge sends it), or the periods
    ending before ``now``."""
    from app.handlers import maintenance

    event = canned_event("schedule_digests.json")
    if now:
        event["time"] = now
    return maintenance.lambda_handler(event, LocalContext("maintenance"))


def run_outbox_sweep() -> dict:
    """The frequent schedule: only the outbox re-dispatch."""
    from app.handlers import maintenance

    return maintenance.lambda_handler({**canned_event("schedule_maintenance.json"),
                                       "sweep": "outbox"}, LocalContext("maintenance"))


def run_account_deletion_resume() -> dict:
    """The account-deletion worker's 5-minute schedule: resume stalled deletions."""
    from app.handlers import account_deletion

    return account_deletion.lambda_handler(canned_event("schedule_account_deletion.json"),
                                            LocalContext("account_deletion"))


def _queue_message_on_a_thread(handler: str, canned: str, body: dict, job: str,
                               why_a_crash_is_safe: str) -> threading.Thread:
    """Local stand-in for an SQS queue: the worker's handler (``app.handlers.<handler>``), fed
    the canned SQS event carrying ``body``, on a thread of its own (as Lambda would run it
    after the API answered 202). A crash is logged; ``why_a_crash_is_safe`` says who recovers."""
    import importlib

    module = importlib.import_module(f"app.handlers.{handler}")
    event = canned_event(canned)
    event["Records"][0]["body"] = json.dumps(body)

    def run() -> None:
        try:
            module.lambda_handler(event, LocalContext(handler))
        except Exception:
            log.exception("local.job_failed", extra={"job": job, "recovery": why_a_crash_is_safe})

    thread = threading.Thread(target=run, name=job, daemon=True)
    thread.start()
    return thread


# Each worker queue's local stand-in: its handler, the canned SQS event carrying the message,
# and who recovers work a crash drops.
LOCAL_WORKERS = {
    "account-deletion": ("account_deletion", "account_deletion_sqs.json",
                         "the resume schedule picks the deletion up again"),
    "import": ("import_worker", "import_sqs.json", "the import records its own failure"),
    "chat": ("chat_worker", "chat_worker_sqs.json", "the reconciliation sweep re-drives it"),
    "receipt": ("receipt_worker", "receipt_worker_sqs.json",
                "complete again (ingest) or the reconcile schedule (scan) re-drives it"),
    "profile-mirror": ("profile_mirror", "profile_mirror_sqs.json",
                       "the account's next rename mirrors its name again"),
}


def start_worker(queue: str, message: dict) -> threading.Thread:
    """The worker of ``queue`` (a name in app.core.handoff) on a thread, fed
    ``message`` as its queue would, after the API answered 202."""
    handler, canned, recovery = LOCAL_WORKERS[queue]
    return _queue_message_on_a_thread(handler, canned, message, queue, recovery)


def install_local_workers() -> None:
    """Local mode: every queue's messages go to its worker on a thread."""
    from app.core import handoff

    for queue in LOCAL_WORKERS:
        handoff.use_local_runner(queue, lambda message, queue=queue: start_worker(queue, message))


def run_chat_reconcile() -> dict:
    """The chat worker's schedule: re-drive stale work pointers."""
    from app.handlers import chat_worker

    return chat_worker.lambda_handler(canned_event("schedule_chat_reconcile.json"),
                                       LocalContext("chat_worker"))


def run_receipt_reconcile() -> dict:
    """The receipt worker's schedule: re-drive stale scan pointers."""
    from app.handlers import receipt_worker

    return receipt_worker.lambda_handler(canned_event("schedule_receipt_reconcile.json"),
                                          LocalContext("receipt_worker"))


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
