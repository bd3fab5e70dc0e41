"""Membership parts shared by participants and join requests: roles, views, guards.

Both use cases build on these; keeping them here lets ``participants`` call into
``join_requests`` (cancelling takeovers of a removed guest) without an import cycle."""
from __future__ import annotations

from typing import Any, Optional, Tuple

from app.errors import DomainError, concurrent_update, group_not_found, not_found
from app.groups.errors import group_full, last_owner, needs_owner
from app.limits import MAX_GROUP_PARTICIPANTS
from app.core import changelog
from app.core.access import Access
from app.core.transactions import Transaction
from app.ledger import default_split
from models.groups import Group, GroupStatus, Participant, UserMember

OWNER, USER, GUEST = "OWNER", "USER", "GUEST"


def roster(group_id: str) -> list:
    """Every participant of a group (consistent read: the roster guards money writes)."""
    return list(Participant.roster(group_id, consistent_read=True))


def get_participant(group_id: str, participant_id: str) -> Participant:
    """The participant of this group, or NotFound."""
    try:
        return Participant.get(group_id, Participant.sort_key(participant_id),
                               consistent_read=True)
    except Participant.DoesNotExist:
        raise not_found("Participant") from None


# --- transaction parts shared by every membership change -----------------------------------

def require_live_group(tx: Transaction, group_id: str, *, roster_change: bool = False) -> None:
    """The group must still be ACTIVE when ``tx`` commits (a delete may be under way).

    ``roster_change``: ``tx`` changes who may be named in money (a guest claimed or turned
    back, a transfer's lock): the head's RosterVersion moves with it, so a money write that
    read the roster before fails (app.ledger.guards)."""
    if roster_change:
        tx.update(Group(*Group.key(group_id)), [Group.roster_bump()],
                  condition=Group.Status == GroupStatus.ACTIVE, on_fail=group_not_found())
        return
    tx.check(Group, *Group.key(group_id), condition=Group.Status == GroupStatus.ACTIVE,
             on_fail=group_not_found())


def require_still_owner(tx: Transaction, access: Access) -> None:
    """The caller must still be an OWNER when ``tx`` commits, not only when authorized."""
    tx.check(UserMember, access.group_id, UserMember.sort_key(access.user_id),
             condition=UserMember.Role == OWNER,
             on_fail=needs_owner())
    tx.require_live_account(access.user_id)


def count_owners(group_id: str) -> int:
    return sum(1 for p in roster(group_id) if p.Type == USER and p.Role == OWNER)


def change_owner_count(tx: Transaction, group: Group, delta: int, *,
                       actor: Optional[str] = None) -> None:
    """Move the head's OwnerCount by ``delta`` in ``tx``; a decrement must leave an owner."""
    change_counts(tx, group, owners=delta, actor=actor)


def change_counts(tx: Transaction, group: Group, *, owners: int = 0,
                  participants: int = 0, actor: Optional[str] = None,
                  leaving: Optional[str] = None, heir: Optional[str] = None) -> None:
    """Move the head's OwnerCount and ParticipantCount in one update of ``tx`` (live groups).

    An owner decrement must leave an owner (OwnerCount > 1 before it); a participant
    increment must stay within MAX_GROUP_PARTICIPANTS (409 GROUP_FULL), so concurrent adds
    can never overfill a group; the head's RosterVersion moves too. Groups that predate a
    counter are seeded from a roster count through if_not_exists, so their first mutation
    heals them; a concurrent healer then sees the attribute and its own guard decides. The head is written here, so ``tx`` must not
    also condition-check it (use this instead of require_live_group).

    ``leaving``: the participant this transaction removes (``heir``: the one a transfer
    merges them into); the group's default split is rewritten without them in the same
    update (:func:`default_without`)."""
    condition, actions = Group.Status == GroupStatus.ACTIVE, []
    if leaving is not None:
        actions, kept = default_without(group, leaving, heir=heir)
        condition &= kept
    for name, delta, stored in (("OwnerCount", owners, group.OwnerCount),
                                ("ParticipantCount", participants, group.ParticipantCount)):
        if not delta:
            continue
        attribute = getattr(Group, name)
        if stored is not None:
            current, action = int(stored), attribute.add(delta)
        else:
            current = _roster_count(group.GroupId, name)
            action = attribute.set((attribute | current) + delta)
        guard = _guard(attribute, name, delta, current)
        if guard is not None:
            condition &= guard if stored is not None else (attribute.does_not_exist() | guard)
        actions.append(action)
    if not actions:
        raise ValueError("change_counts needs a non-zero delta")
    actions.append(Group.roster_bump())  # every count change is a roster change
    tx.update(Group(*Group.key(group.GroupId)), actions, condition=condition,
              on_fail=lambda old: _why_refused(old, owners, participants))
    if owners:
        before = int(group.OwnerCount) if group.OwnerCount is not None else None
        changelog.record(tx, group, Group(*Group.key(group.GroupId), Name=group.Name),
                         actor=actor, diff=changelog.diff_of(
                             {"ownerCount": before},
                             {"ownerCount": None if before is None else before + owners}))


def default_without(group: Group, participant_id: str, *,
                    heir: Optional[str] = None) -> Tuple[list, Any]:
    """(head update actions, head condition) keeping the group's default split exact once
    ``participant_id`` leaves (app.ledger.default_split.after_leaving).

    The condition holds the default to the one read from ``group``: absent stays absent;
    a present one is held by the roster version, which every default change moves too
    (app.groups.groups.update_group), so a concurrent PATCH of the default and this removal
    never leave a default naming someone gone: whichever commits second fails and reads
    again (:func:`reread_head`)."""
    if group.DefaultSplit is None:
        return [], Group.DefaultSplit.does_not_exist()
    held = Group.roster_unchanged(None if group.RosterVersion is None
                                  else int(group.RosterVersion))
    changed, after = default_split.after_leaving(group.DefaultSplit, participant_id, heir=heir)
    if not changed:
        return [], held
    return [Group.DefaultSplit.remove() if after is None else Group.DefaultSplit.set(after)], \
        held


def reread_head(group: Group) -> Optional[Group]:
    """The head again (consistent) when its roster or default moved since ``group`` was
    read, so a removal that lost to such a change is built anew; None when neither moved
    (the conflict was something else)."""
    try:
        head = Group.get(*Group.key(group.GroupId), consistent_read=True)
    except Group.DoesNotExist:
        return None
    moved = head.RosterVersion != group.RosterVersion or \
        not default_split.same(head.DefaultSplit, group.DefaultSplit)
    return head if moved else None


def _guard(attribute, name: str, delta: int, current: int):
    """The condition keeping a counter in bounds; raises at once if the value read breaks it."""
    if name == "OwnerCount" and delta < 0:
        if current + delta < 1:
            raise last_owner()
        return attribute >= 1 - delta
    if name == "ParticipantCount" and delta > 0:
        if current + delta > MAX_GROUP_PARTICIPANTS:
            raise group_full(MAX_GROUP_PARTICIPANTS)
        return attribute <= MAX_GROUP_PARTICIPANTS - delta
    return None


def _roster_count(group_id: str, name: str) -> int:
    if name == "OwnerCount":
        return count_owners(group_id)
    return len(roster(group_id))


def _why_refused(old: Optional[dict], owners: int, participants: int) -> DomainError:
    """Which guard of :func:`change_counts` failed, judged on the head as it was."""
    head = Group.from_raw(old)
    if head is None or head.Status != GroupStatus.ACTIVE:
        return group_not_found()
    if owners < 0 and head.OwnerCount is not None and int(head.OwnerCount) + owners < 1:
        return last_owner()
    if participants > 0 and head.ParticipantCount is not None and \
            int(head.ParticipantCount) + participants > MAX_GROUP_PARTICIPANTS:
        return group_full(MAX_GROUP_PARTICIPANTS)
    return concurrent_update()
