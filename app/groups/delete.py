"""Group deletion: tombstone first, then a resumable sweep of the partition, head last.

The tombstone (Status DELETING) makes the group unreadable at once, whatever happens next.
The sweep deletes with unconditional (idempotent) batched deletes, retrying UnprocessedItems,
so an interrupted sweep leaves a group that still reads as gone and can simply be re-run."""
from __future__ import annotations

from typing import Callable, Optional


from app.core import cascades
from app.core.access import Access
from app.errors import group_not_found
from app.core.clock import iso_in, now_iso
from app.logs import logger
from app.core.conditional import delete_if, update_if
from app.core.transactions import Transaction
from models.base import UnprocessedItemsLeft
from models.groups import DELETE_BUCKET, META, Balance, Group, GroupItem, GroupStatus

DELETING = GroupStatus.DELETING
# A request's own sweep normally finishes first; the maintenance job picks up the rest.
RESUME_AFTER_SECONDS = 15 * 60
QUERY_PAGE_SIZE = 200
# A DELETE request sweeps at most this many query pages before answering 202 and leaving
# the rest to a re-run (the maintenance job's "resume half-done group deletes").
REQUEST_PAGE_BUDGET = 20


SweepIncomplete = UnprocessedItemsLeft  # what a caller of sweep() catches


def delete_group(access: Access) -> bool:
    """Tombstone the group, then sweep it within the request budget; True when all is gone."""
    tombstone(access.group_id)
    try:
        return sweep(access.group_id, max_pages=REQUEST_PAGE_BUDGET)
    except SweepIncomplete:
        return False  # the tombstone already hides the group; a re-run finishes


def tombstone(group_id: str, condition=None) -> None:
    """Mark the head DELETING (under attribute_exists, and ``condition`` when given) so every
    read path treats it as gone.

    The same write files the head under the due index's GROUP_DELETE bucket, due a little
    later: if this request's sweep does not finish, the maintenance job resumes it. The
    balance row's head copy turns DELETING in the same TransactWrite (Balance.Status), so
    the cross-group reads that read only that row drop the group at the same moment."""
    tx = Transaction().without_change("a tombstone: the group is gone for every reader")
    tx.update(Group(*Group.key(group_id)),
              [Group.Status.set(DELETING), Group.UpdatedAt.set(now_iso()),
               Group.DueBucket.set(DELETE_BUCKET),
               Group.NextRunAt.set(iso_in(RESUME_AFTER_SECONDS))],
              condition=Group.SK.exists() if condition is None
              else Group.SK.exists() & condition, on_fail=group_not_found())
    tx.update(Balance(*Balance.key(group_id)), [Balance.Status.set(DELETING)])
    tx.commit()


def sweep(group_id: str, *, max_pages: Optional[int] = None, page_size: Optional[int] = None,
          after_page: Optional[Callable[[int], None]] = None, last: tuple = ()) -> bool:
    """Delete every row of a DELETING group, head last; True when finished.

    Stops early (False) after ``max_pages`` query pages; a rerun continues. Passes repeat
    until one finds nothing but the head, so a row written while a pass was under way is
    not orphaned. The sort keys in ``last`` go just before the head (a caller's way back to
    the group, e.g. a departing user's own participant row, found through their index).
    ``after_page`` is called with the page count (tests interrupt there)."""
    head = Group.from_raw(GroupItem.raw_get(group_id, META))
    if head is None:
        return True  # the head goes last: no head, nothing left
    if head.Status != DELETING:
        raise ValueError(f"group {group_id} is not being deleted; refusing to sweep it")
    cascades.group_sweeping(group_id)
    pages = 0
    while True:
        swept_any = False
        for keys in GroupItem.raw_pages(group_id, keys_only=True,
                                        page_size=page_size or QUERY_PAGE_SIZE):
            if max_pages is not None and pages >= max_pages:
                return False
            rows = [key for key in keys if key[1] != META and key[1] not in last]
            GroupItem.raw_batch_delete(rows)
            swept_any = swept_any or bool(rows)
            pages += 1
            if after_page is not None:
                after_page(pages)
        if not swept_any:
            break
    GroupItem.raw_batch_delete([(group_id, sort_key) for sort_key in last])
    # Conditional: a sweep must never remove the head of a live group.
    delete_if(Group(*Group.key(group_id)), Group.Status == DELETING)
    return True


# A maintenance run resumes at most this many overdue deletes, each at most this many query
# pages; one left unfinished moves to the back of the due index, so no run reads unbounded.
RESUME_LIMIT = 20
RESUME_PAGES = 50


def resume_pending_deletes() -> dict:
    """Finish tombstoned groups whose sweep is overdue (the maintenance job's task), within
    RESUME_LIMIT groups and RESUME_PAGES pages each per run."""
    finished = unfinished = 0
    for head in list(Group.pending_deletes(now_iso(), limit=RESUME_LIMIT)):
        try:
            done = sweep(head.GroupId, max_pages=RESUME_PAGES)
        except SweepIncomplete:
            done = False
        finished += done
        unfinished += not done
        if not done:
            update_if(Group(*Group.key(head.GroupId)),
                      [Group.NextRunAt.set(iso_in(RESUME_AFTER_SECONDS))],
                      Group.Status == DELETING)
            logger.warning("group_delete.still_unfinished", extra={"group_id": head.GroupId})
    return {"resumedGroupDeletes": finished, "unfinishedGroupDeletes": unfinished}
