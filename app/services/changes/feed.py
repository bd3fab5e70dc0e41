"""GET /groups/{groupId}/changes: what changed after a revision, each resource once per page
with its current data, in one Query of the CHANGE rows and one BatchGetItem of the rows
they name (plus the authorization read, which also gives the current revision).

A page is complete only if it continues the log without a gap: the first row read must be
``since + 1``. A gap means rows expired (kept 90 days) or the group predates the log (its
first change is numbered 2, see app.services.core.changelog); the client is told to
refetch (``reset``) and then to sync from the revision it is given."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from app.services.core import changelog
from app.services.core.access import Access
from app.services.ledger.settlements import GroupSettlement
from app.services.recurring.templates import template_of
from models.groups import Change, Group, GroupItem, RecurringExpense, Settlement

MAX_PAGE = 100  # one BatchGetItem holds 100 keys, and a page names at most that many rows


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


def changes_since(access: Access, since: int, limit: Optional[int] = None) -> Feed:
    """The changes after revision ``since`` (oldest first, at most ``limit`` CHANGE rows)."""
    current = changelog.revision_of(access.group)
    if since == current:  # nothing new: the authorization read already told us
        return Feed(current, [], since, False, False)
    if since > current:
        return Feed(current, [], current, False, True)
    page = Change.after(access.group_id, since, limit=min(limit or MAX_PAGE, MAX_PAGE),
                        consistent_read=True)
    rows = list(page)
    if not rows or int(rows[0].Revision) != since + 1:
        return Feed(current, [], current, False, True)
    latest: Dict[tuple, Change] = {}
    for row in rows:  # oldest first: the last one of each resource wins
        latest.pop((row.Kind, row.ResourceId), None)
        latest[(row.Kind, row.ResourceId)] = row
    found = GroupItem.raw_batch_get([(access.group_id, row.ResourceKey)
                                     for row in latest.values()], consistent_read=True)
    changes = []
    for row in latest.values():
        raw = found.get((access.group_id, row.ResourceKey))
        current_row = GroupItem.from_raw_data(raw) if raw else None
        changes.append(ChangeEntry(int(row.Revision), row.Kind, row.ResourceId,
                                   changelog.UPSERT if current_row is not None
                                   else changelog.DELETE,
                                   row.At, row.ActorParticipantId,
                                   _as_read(access, current_row)))
    last = int(rows[-1].Revision)
    return Feed(max(current, last), changes, last, page.last_evaluated_key is not None, False)


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
