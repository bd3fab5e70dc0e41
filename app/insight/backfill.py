"""The projection's one-off backfill: every group's rows synced from state, for data written
before the projection (or before a change of its keys), which no stream record will name.

Run by the Projection function on the canned event ``events/backfill_projection.json``
(``{"backfillProjection": {}}``; docs/deploy.md) and locally by ``python -m app
backfill-projection``. A call walks the groups table's heads a Scan page at a time until its
time is nearly out and answers ``{"cursor", "groups", "done"}``; the next call is given that
cursor (``{"backfillProjection": {"cursor": ...}}``) and goes on from there, so a run of any
length is a loop of short calls, and a call that dies repeats at most one page.

Idempotent: a sync makes the rows equal to the group (app.insight.projection.sync_group), so
a group synced twice is written once. Safe beside the stream: a group written while its sync
ran (its Revision moved) is synced again until a sync starts and ends on one revision, so a
sync that read before a change cannot leave a row keyed by the old date behind; every change
after that is the stream's, which follows its commit."""
from __future__ import annotations

import time
from typing import Optional

from app.insight import projection
from app.logs import logger
from models.groups import Group, GroupItem
from models.groups.keys import META

# The Lambda event's key that asks for a backfill call instead of a stream batch.
BACKFILL = "backfillProjection"
# Items a Scan page evaluates (every row of the table, heads kept): pages stay short.
PAGE_SIZE = 500
# Stop starting pages with this much of the invocation left: a page syncs at most PAGE_SIZE
# groups, most of them a few calls each.
RESERVE_SECONDS = 20
# Syncs of one group while its revision keeps moving; the stream has every later change.
ATTEMPTS = 5


def _revision(group_id: str) -> Optional[int]:
    head = Group.from_raw(GroupItem.raw_get(*Group.key(group_id), consistent_read=True))
    return None if head is None else int(head.Revision or 0)


def backfill_group(group_id: str) -> int:
    """Sync one group until its revision holds still across the sync; returns the syncs."""
    for attempt in range(1, ATTEMPTS + 1):
        before = _revision(group_id)
        projection.sync_group(group_id)
        if _revision(group_id) == before:
            return attempt
    logger.warning("projection.backfill_busy_group", extra={"group_id": group_id})
    return ATTEMPTS


def backfill(cursor: Optional[dict] = None, *, seconds: Optional[float] = None,
             pages: Optional[int] = None, page_size: int = PAGE_SIZE) -> dict:
    """Whole Scan pages of group heads from ``cursor`` until ``seconds`` (or ``pages``) run
    out: ``{"cursor": where to go on, or None, "groups": synced, "done": bool}``."""
    started, done_pages, groups = time.monotonic(), 0, 0
    start = cursor
    while True:
        items, start = GroupItem.raw_scan_page(filter_condition=GroupItem.SK == META,
                                               attributes=["GroupId", "SK"],
                                               page_size=page_size, start=start)
        for item in items:
            backfill_group(item["GroupId"]["S"])
            groups += 1
        done_pages += 1
        if not start or (pages is not None and done_pages >= pages) or (
                seconds is not None and time.monotonic() - started > seconds):
            break
    logger.info("projection.backfill", extra={"groups": groups, "done": start is None})
    return {"cursor": start, "groups": groups, "done": start is None}


def run(request: dict, seconds_left: Optional[float]) -> dict:
    """One Lambda call: ``request`` is the event's ``backfillProjection`` object."""
    budget = None if seconds_left is None else max(seconds_left - RESERVE_SECONDS, 0.0)
    return backfill((request or {}).get("cursor"), seconds=budget,
                    pages=(request or {}).get("pages"))
