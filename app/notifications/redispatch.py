"""The outbox sweep: deliver outbox events the stream worker never finished.

Pages through every outbox shard (``PENDING#<n>``: an event's row stays there until dispatch
deletes it) for events still pending after STALE_SECONDS (the worker normally deletes them
within seconds), every shard at once, until the run's time budget or MAX_EVENTS is spent;
whatever is left is the next run's (``morePendingEvents``). In event-id order, not oldest
first: a shard holds only what is pending, so a run that stops early leaves the rest
for the next, and what it dispatched is gone from the shard. A run may take a subset of the shards (``shards``), so the schedule
can start several runs side by side, each with its own CPU. Sized in
bench/outbox_sweep_bench.py: after an hour's outage at ~1M users the backlog drains within
the hour.

Two sweeps overlapping (or a sweep and a lagging stream worker) are harmless without any claim:
event ids are deterministic and each recipient's history row is created under
attribute_not_exists, so an event handled twice is written and pushed once (see dispatch). The
consistent ``already_dispatched`` read before each event makes the second handler's cost one
GetItem instead of a whole dispatch."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Optional, Sequence

from app.logs import logger
from app.core.clock import iso_in
from app.notifications.dispatch import already_dispatched, dispatch
from models.notifications import Event

STALE_SECONDS = 5 * 60
MAX_EVENTS = 50_000  # a safety cap; the time budget is what normally ends a run
SHARD_WORKERS = 16  # shards swept at once (all): dispatch mostly waits on DynamoDB and push
PAGE_SIZE = 100
# Without a caller's deadline (tests, the CLI): stop starting new events after this long.
DEFAULT_BUDGET_S = 240.0


class _Run:
    """What the shard workers share: the deadline, the event budget and the counts."""

    def __init__(self, deadline: float, max_events: int) -> None:
        self.deadline, self.left = deadline, max_events
        self.dispatched = self.failed = self.skipped = 0
        self.more = False
        self._lock = threading.Lock()

    def take(self) -> bool:
        """One more event may start: within budget and before the deadline."""
        with self._lock:
            if self.left <= 0 or time.monotonic() >= self.deadline:
                self.more = True
                return False
            self.left -= 1
            return True

    def count(self, name: str) -> None:
        with self._lock:
            setattr(self, name, getattr(self, name) + 1)


def _sweep_shard(run: _Run, shard: str, cutoff: str) -> None:
    for event in Event.pending(shard, cutoff, page_size=PAGE_SIZE):
        if not run.take():
            return
        try:
            if already_dispatched(event):  # another run or the worker got there
                run.count("skipped")
                continue
            dispatch(event)
            run.count("dispatched")
        except Exception:  # noqa: BLE001 - one bad event must not stop the others
            run.count("failed")
            logger.exception("outbox.redispatch_failed", extra={"event_id": event.EventId})


def redispatch_pending(max_events: int = MAX_EVENTS, *, deadline: Optional[float] = None,
                       workers: Optional[int] = None,
                       shards: Optional[Sequence[int]] = None) -> dict:
    """One sweep run. ``deadline`` (a ``time.monotonic()`` instant) is when to stop starting
    events; events already started finish (each is bounded: push.SEND_DEADLINE_S). ``shards``:
    the outbox shard numbers to sweep (all when omitted)."""
    if deadline is None:
        deadline = time.monotonic() + DEFAULT_BUDGET_S
    run, cutoff = _Run(deadline, max_events), iso_in(-STALE_SECONDS)
    every = Event.shards()
    shards = every if shards is None else [every[int(n)] for n in shards]
    with ThreadPoolExecutor(max_workers=min(workers or SHARD_WORKERS, len(shards)),
                            thread_name_prefix="outbox") as pool:
        for done in [pool.submit(_sweep_shard, run, shard, cutoff) for shard in shards]:
            done.result()  # a shard whose Query failed fails the run (the schedule retries)
    return {"redispatchedEvents": run.dispatched, "failedEvents": run.failed,
            "alreadyDispatchedEvents": run.skipped, "morePendingEvents": run.more}
