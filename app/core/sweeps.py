"""Bounded, resumable table walks for maintenance sweeps that no index can serve.

A sweep reads at most ``max_pages`` Scan pages per run and saves where it stopped (a
SweepCursor row) after each page it finished, so a crash repeats at most one page and the
next run continues; at the end of the table the cursor is cleared and the walk starts over."""
from __future__ import annotations

import json
from typing import Iterator, List, Optional

from models.notifications import NotificationItem, SweepCursor


def _load(name: str) -> Optional[dict]:
    cursor = SweepCursor.from_raw(NotificationItem.raw_get(*SweepCursor.key(name)))
    position = cursor.Position if cursor is not None else None
    return json.loads(position) if position else None


def _save(name: str, position: Optional[dict]) -> None:
    row = SweepCursor(*SweepCursor.key(name))
    if position is None:
        row.delete()
    else:
        row.Position = json.dumps(position, sort_keys=True)
        row.save()


def scan_pages(model, name: str, *, filter_condition=None, attributes: Optional[List[str]] = None,
               page_size: int = 500, max_pages: int = 5) -> Iterator[List[dict]]:
    """Yield raw item pages from where the last run stopped; checkpoint after each page."""
    start = _load(name)
    for _ in range(max_pages):
        items, start = model.raw_scan_page(filter_condition=filter_condition,
                                           attributes=attributes, page_size=page_size,
                                           start=start)
        yield items
        _save(name, start)
        if not start:
            return
