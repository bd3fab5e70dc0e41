"""A filtered list, a page at a time, over a list that can only page (a DynamoDB query).

The filter runs on the rows each page brings: a page is read for what is still wanted (so
the answer never holds more than ``limit`` rows), and at most ``MAX_READS`` pages are read
per call, so a rare match costs a bounded number of queries. The answer may then hold fewer
than ``limit`` rows (even none) with a ``nextCursor``: the list goes on. The cursor is the
underlying list's own, signed for the ``scope`` the caller passes (which names the filter),
so it resumes exactly where the last read page ended."""
from __future__ import annotations

from typing import Any, Callable, Optional

from app.core import paging

MAX_READS = 10

Fetch = Callable[[int, Optional[str]], dict]  # (limit, cursor) -> {"items", "nextCursor"}


def filtered(fetch: Fetch, keep: Callable[[Any], bool], *, limit: Optional[int],
             cursor: Optional[str]) -> dict:
    wanted = paging.clamp_limit(limit)
    items: list = []
    for _ in range(MAX_READS):
        page = fetch(wanted - len(items), cursor)
        items += [row for row in page["items"] if keep(row)]
        cursor = page["nextCursor"]
        if cursor is None or len(items) >= wanted:
            break
    return {"items": items, "nextCursor": cursor}
