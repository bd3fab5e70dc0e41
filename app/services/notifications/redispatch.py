"""The maintenance sweep: deliver outbox events the stream worker never finished.

Reads every PendingEventsIndex shard for events still pending after STALE_SECONDS (the worker
normally removes PendingKey within seconds), oldest first, at most MAX_EVENTS per run. Each is
dispatched exactly as the worker would, so one the worker is handling at the same moment is
still written once (deterministic history keys) and pushed once."""
from __future__ import annotations

from app.logs import logger
from app.services.core.clock import iso_in
from app.services.notifications.dispatch import dispatch
from models.notifications import Event

STALE_SECONDS = 5 * 60
MAX_EVENTS = 200


def redispatch_pending(max_events: int = MAX_EVENTS) -> dict:
    cutoff, dispatched, failed, budget = iso_in(-STALE_SECONDS), 0, 0, max_events
    for shard in Event.shards():
        if budget <= 0:
            break
        for event in Event.pending(shard, cutoff, limit=budget):
            budget -= 1
            try:
                dispatch(event)
                dispatched += 1
            except Exception:  # noqa: BLE001 — one bad event must not stop the others
                failed += 1
                logger.exception("outbox.redispatch_failed", extra={"event_id": event.EventId})
    more = any(True for shard in Event.shards()
               for _ in Event.pending(shard, cutoff, limit=1)) if budget <= 0 else False
    return {"redispatchedEvents": dispatched, "failedEvents": failed,
            "morePendingEvents": more}
