"""Membership parts shared by participants and join requests: roles, views, guards.

Both use cases build on these; keeping them here lets ``participants`` call into
``join_requests`` (cancelling takeovers of a removed guest) without an import cycle."""
from __future__ import annotations

from app.errors import group_not_found, last_owner, needs_owner, not_found
from app.services.core.access import Access
from app.services.core.transactions import Transaction
from models.groups import Group, Participant, UserMember

OWNER, USER, GUEST = "OWNER", "USER", "GUEST"
def participant_view(row: Participant) -> dict:
    view = {"participantId": row.ParticipantId, "type": row.Type,
            "displayName": row.DisplayName, "role": row.Role}
    if row.UserId:
        view["userId"] = row.UserId
    if row.ClaimedAt:
        view["claimedAt"] = row.ClaimedAt
    return view


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

def require_live_group(tx: Transaction, group_id: str) -> None:
    """The group must still be ACTIVE when ``tx`` commits (a delete may be under way)."""
    tx.check(Group, *Group.key(group_id), condition=Group.Status == "ACTIVE",
             on_fail=group_not_found())


def require_still_owner(tx: Transaction, access: Access) -> None:
    """The caller must still be an OWNER when ``tx`` commits, not only when authorized."""
    tx.check(UserMember, access.group_id, UserMember.sort_key(access.user_id),
             condition=UserMember.Role == OWNER,
             on_fail=needs_owner())


def count_owners(group_id: str) -> int:
    return sum(1 for p in roster(group_id) if p.Type == USER and p.Role == OWNER)


def change_owner_count(tx: Transaction, group: Group, delta: int) -> None:
    """Move the head's OwnerCount by ``delta`` in ``tx``; a decrement must leave an owner.

    Groups that predate OwnerCount are seeded from a roster count through if_not_exists,
    so their first owner mutation heals them; a concurrent healer then sees the attribute
    and its own ``OwnerCount > 1`` guard decides."""
    if group.OwnerCount is not None:
        action = Group.OwnerCount.add(delta)
        floor = Group.OwnerCount > 1
    else:
        count = count_owners(group.GroupId)
        if count + delta < 1:
            raise last_owner()
        action = Group.OwnerCount.set((Group.OwnerCount | count) + delta)
        floor = Group.OwnerCount.does_not_exist() | (Group.OwnerCount > 1)
    live = Group.Status == "ACTIVE"
    tx.update(Group(*Group.key(group.GroupId)), [action],
              condition=(live & floor) if delta < 0 else live,
              on_fail=last_owner() if delta < 0 else group_not_found())
