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


class Scheduler:
    """Runs each job every ``period`` seconds on a daemon thread until stopped."""

    def __init__(self) -> None:
        self._stop = threading.Event()

    def every(self, period: float, job, name: str) -> None:
        def loop() -> None:
            while not self._stop.wait(period):
                try:
                    job()
                except Exception:  # noqa: BLE001 — a failed run is retried next period
                    log.exception("local.job_failed", extra={"job": name})

        threading.Thread(target=loop, name=name, daemon=True).start()

    def on_the_hour(self, job, name: str) -> None:
        """Run ``job`` at the top of every hour (wall clock), as EventBridge's hourly rule does."""

        def loop() -> None:
            while not self._stop.wait(3600 - time.time() % 3600):
                try:
                    job()
                except Exception:  # noqa: BLE001 — a failed run is retried next hour
                    log.exception("local.job_failed", extra={"job": name})

        threading.Thread(target=loop, name=name, daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
