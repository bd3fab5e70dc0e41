"""Archive and unarchive a group (OWNER): a finished trip put away, read-only until unarchived.

The head's ArchivedAt is the whole state. Every group write is authorized with
``writing=True`` and refused 409 GROUP_ARCHIVED while it is set (app.core.access
.refuse_archived: one check, not one per route); reads go on as before. The recurring tick
leaves an archived group's templates alone, and after an unarchive skips the slots before
that day (UnarchivedAt), so nothing is backfilled. Each flip is a change of the group (its
revision and CHANGE row), conditioned on the head still being ACTIVE and on the flag as
read, so two owners flipping at once cannot both think they did."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from app.errors import DomainError, concurrent_update, group_not_found
from app.core import changelog
from app.core.access import Access
from app.core.clock import now_iso
from app.core.transactions import Transaction
from app.ledger import balances
from models.groups import BALANCE, Group, GroupStatus

PREFETCH = (BALANCE,)


@dataclass(frozen=True)
class Archival:
    """The group after an archive or unarchive, and whether any net is non-zero.

    Attribute reads fall through to the access, so the group's reply schema dumps it."""

    access: Access
    unsettled: bool

    def __getattr__(self, name: str):
        return getattr(self.access, name)


def archive_group(access: Access) -> Archival:
    """Archive the group (already archived: nothing changes). Unsettled nets are allowed,
    and said: ``unsettled``."""
    return _flip(access, archived=True)


def unarchive_group(access: Access) -> Archival:
    """Unarchive the group (not archived: nothing changes); writes are taken again."""
    return _flip(access, archived=False)


def _flip(access: Access, *, archived: bool) -> Archival:
    group = access.group
    if group.archived != archived:
        now = now_iso()
        flag = Group.ArchivedAt.set(now) if archived else Group.ArchivedAt.remove()
        actions = [flag, Group.UpdatedAt.set(now)]
        if not archived:
            actions.append(Group.UnarchivedAt.set(now))
        seen = Group.ArchivedAt.does_not_exist() if archived else \
            Group.ArchivedAt == group.ArchivedAt
        tx = Transaction().update(Group(*Group.key(group.GroupId)), actions,
                                  condition=(Group.Status == GroupStatus.ACTIVE) & seen,
                                  on_fail=_refused)
        changelog.record(tx, group, Group(*Group.key(group.GroupId), Name=group.Name),
                         actor=access.participant_id,
                         diff=[{"field": "archived", "before": not archived, "after": archived}])
        tx.commit()
        group.ArchivedAt = now if archived else None
        group.UpdatedAt = now
        if not archived:
            group.UnarchivedAt = now
    return Archival(access, _unsettled(access))


def _unsettled(access: Access) -> bool:
    raw = access.prefetched.get(BALANCE) if BALANCE in access.prefetched else None
    nets = balances.served_nets(raw)[0] if raw is not None else \
        balances.group_nets(access.group_id)[0]
    return any(nets.values())


def _refused(old: Optional[dict]) -> DomainError:
    head = Group.from_raw(old)
    if head is None or head.Status not in (GroupStatus.ACTIVE, GroupStatus.CLOSING):
        return group_not_found()
    return concurrent_update()  # another owner flipped it meanwhile: read and retry
