"""GET /groups/{groupId}/changes: what changed after a revision, each resource once per page
with its current data, in two calls: one Query of the CHANGE rows (:func:`read_page`, run
once the credential is verified and before the access check), then the request's one
BatchGetItem, which checks the caller's account and access, gives the current revision and
reads the rows the page names (their sort keys are the view's prefetch).

A page is complete only if it continues the log without a gap: the first row read must be
``since + 1``. A gap means rows expired (kept 90 days) or the group predates the log (its
first change is numbered 2, see app.core.changelog); the client is told to
refetch (``reset``) and then to sync from the revision it is given."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from app.core import changelog, request_reads
from app.core.access import Access
from app.ledger.settlements import GroupSettlement
from app.recurring.templates import template_of
from models.base import BATCH_GET_LIMIT
from models.groups import (COMMENT_SEGMENT, EXPENSE_PREFIX, Change, ChangeKind, Comment, Expense,
                           Group, GroupItem, RecurringExpense, Settlement)

MAX_PAGE = 100  # one BatchGetItem holds 100 keys, and a page names at most that many rows
# The access check's BatchGetItem reads the profile, the head and the guard row: the rows of
# a page naming more resources than fit beside them are read in a call of their own.
PREFETCH_LIMIT = BATCH_GET_LIMIT - 3


@dataclass(frozen=True)
class ChangeEntry:
    """One resource's latest change in a page, with its current row (None once deleted)."""

    revision: int
    kind: str
    id: str
    op: str
    at: str
    actor_participant_id: Optional[str]
    data: Any


@dataclass(frozen=True)
class Feed:
    revision: int
    changes: List[ChangeEntry]
    next_since: int
    has_more: bool
    reset: bool


@dataclass(frozen=True)
class Page:
    """A page of CHANGE rows after ``since``, and the sort keys of the rows it names (empty
    when more than PREFETCH_LIMIT: they are read on their own)."""

    rows: List[Change]
    more: bool
    keys: tuple


def read_page(group_id: str, since: int, limit: Optional[int]) -> Page:
    """The CHANGE rows after ``since``, kept for this request's view (:func:`page_for`): the
    view's prefetch reads them before the access check."""
    page = _query_page(group_id, since, limit)
    request_reads.hold(("changes", group_id, since, limit), page)
    return page


def page_for(group_id: str, since: int, limit: Optional[int]) -> Page:
    """The page the prefetch read, or a fresh read (a personal access token's request has no
    prefetch; outside a request nothing is kept)."""
    return (request_reads.take(("changes", group_id, since, limit))
            or _query_page(group_id, since, limit))


def _query_page(group_id: str, since: int, limit: Optional[int]) -> Page:
    query = Change.after(group_id, since, limit=min(limit or MAX_PAGE, MAX_PAGE),
                         consistent_read=True)
    rows = list(query)
    # An activity-only row names a row no feed may read (a LINK's is the link, with hashes).
    names = tuple(dict.fromkeys(key for row in rows if row.Kind not in ChangeKind.ACTIVITY_ONLY
                                for key in _read_keys(row)))
    return Page(rows, query.last_evaluated_key is not None,
                names if len(names) <= PREFETCH_LIMIT else ())


def changes_since(access: Access, since: int, page: Page) -> Feed:
    """The changes after revision ``since`` (oldest first), from ``page`` (:func:`read_page`,
    read before ``access``: the head's revision covers every row it holds)."""
    current = changelog.revision_of(access.group)
    if since == current:  # nothing new (the page is empty)
        return Feed(current, [], since, False, False)
    rows = page.rows
    if since > current or not rows or int(rows[0].Revision) != since + 1:
        return Feed(current, [], current, False, True)
    latest: Dict[tuple, Change] = {}
    for row in rows:  # oldest first: the last one of each resource wins
        if row.Kind in ChangeKind.ACTIVITY_ONLY:
            continue  # its revision still counts (nextSince passes it)
        latest.pop((row.Kind, row.ResourceId), None)
        latest[(row.Kind, row.ResourceId)] = row
    if page.keys or not latest:
        found = {(access.group_id, sort_key): raw for sort_key, raw in access.prefetched.items()
                 if raw is not None}
    else:
        found = GroupItem.raw_batch_get([(access.group_id, key) for row in latest.values()
                                         for key in _read_keys(row)], consistent_read=True)
    changes = []
    for row in latest.values():
        raw = found.get((access.group_id, row.ResourceKey))
        current_row = GroupItem.from_raw_data(raw) if raw else None
        if isinstance(current_row, Comment) and \
                (access.group_id, _head_key(row.ResourceKey)) not in found:
            current_row = None  # its expense is in the trash: the comment is not readable
        changes.append(ChangeEntry(int(row.Revision), row.Kind, row.ResourceId,
                                   changelog.UPSERT if current_row is not None
                                   else changelog.DELETE,
                                   row.At, row.ActorParticipantId,
                                   _as_read(access, current_row)))
    last = int(rows[-1].Revision)
    return Feed(max(current, last), changes, last, page.more, False)


def _head_key(comment_key: str) -> str:
    """The sort key of the expense a comment's sort key hangs off."""
    return Expense.sort_key(comment_key[len(EXPENSE_PREFIX):comment_key.index(COMMENT_SEGMENT)])


def _read_keys(row: Change) -> tuple:
    """The sort keys a change's current data is read from: a comment's with its expense's
    head, since a comment whose expense is in the trash (app.ledger.trash) reads as gone."""
    if row.Kind == ChangeKind.COMMENT and COMMENT_SEGMENT in row.ResourceKey:
        return row.ResourceKey, _head_key(row.ResourceKey)
    return (row.ResourceKey,)


def _as_read(access: Access, row) -> Any:
    """The row wrapped as its own GET wraps it, for the same reply schema."""
    if isinstance(row, Group):
        return Access(group=row, user_id=access.user_id, participant_id=access.participant_id,
                      role=access.role)
    if isinstance(row, Settlement):
        return GroupSettlement(row, access.group.Currency)
    if isinstance(row, RecurringExpense):
        return template_of(row)
    return row
