"""A user leaving every group at once (account deletion): the groups area's part of it.

The account area drives the order; these are the group-side steps, each idempotent so a
rerun after a crash only finishes what is left:
- :func:`sole_owner_groups` finds the groups that would be left without an owner while
  other users are still in them (account deletion refuses with 409 SOLE_OWNER);
- :func:`depart` turns the user's USER participant back into a GUEST that keeps its
  ParticipantId and display name (so history and balances do not move), removing its
  USERMEMBER guard and moving OwnerCount in the same transaction; a group in which the user
  is the only user goes with the account (the resumable group delete);
- :func:`cancel_pending_requests` withdraws the user's pending join requests and locks."""
from __future__ import annotations

from typing import List, Optional

from app.errors import Conflict, participant_changed, sole_owner
from app.services.core.clock import now_iso
from app.services.core.transactions import Transaction
from app.services.groups import delete as group_delete
from app.services.groups.membership import (GUEST, OWNER, USER, change_counts,
                                            require_live_group, roster)
from models.groups import (JOINREQ_PREFIX, Group, GroupItem, JoinLock, JoinRequest, Participant,
                           UserMember)

DELETED, CONVERTED, GONE = "deleted", "converted", "gone"
# A guest holds no role of its own: an owner turned guest becomes a plain member.
GUEST_ROLE = "MEMBER"


def my_group_ids(user_id: str) -> List[str]:
    """Groups where the user has a USER participant (UserParticipantsIndex)."""
    return [row.GroupId for row in Participant.memberships(user_id)]


def _head(group_id: str) -> Optional[Group]:
    try:
        return Group.get(*Group.key(group_id), consistent_read=True)
    except Group.DoesNotExist:
        return None


def sole_owner_groups(user_id: str) -> List[dict]:
    """``[{groupId, name}]`` where the user is the only OWNER and other users take part."""
    found = []
    for membership in Participant.memberships(user_id):
        if membership.Role != OWNER:
            continue
        head = _head(membership.GroupId)
        if head is None or head.Status != "ACTIVE":
            continue
        if _sole_owner_with_others(roster(membership.GroupId), user_id):
            found.append({"groupId": head.GroupId, "name": head.Name})
    return found


def _sole_owner_with_others(rows: list, user_id: str) -> bool:
    users = [p for p in rows if p.Type == USER]
    owners = [p for p in users if p.Role == OWNER]
    others = [p for p in users if p.UserId != user_id]
    return bool(others) and [p.UserId for p in owners] == [user_id]


def depart(user_id: str, group_id: str) -> str:
    """Take the user out of one group; returns DELETED, CONVERTED or GONE (nothing to do)."""
    head = _head(group_id)
    if head is None:
        return GONE
    if head.Status == group_delete.DELETING:
        return DELETED if group_delete.sweep(group_id) else GONE
    rows = roster(group_id)
    mine = [p for p in rows if p.Type == USER and p.UserId == user_id]
    if not [p for p in rows if p.Type == USER and p.UserId != user_id]:
        # Nobody else signs in to this group: it goes with the account.
        group_delete.tombstone(group_id)
        group_delete.sweep(group_id)
        return DELETED
    _forget_requests(group_id, user_id)  # before the conversion, which ends our finding it
    if not mine:
        UserMember(group_id, UserMember.sort_key(user_id)).delete()  # a stray guard, if any
        return GONE
    _to_guest(head, mine[0], user_id)
    return CONVERTED


def _forget_requests(group_id: str, user_id: str) -> None:
    """The user's decided join requests here: they name the applicant."""
    mine = [(row.GroupId, row.SK) for row in
            JoinRequest.query(group_id, JoinRequest.SK.startswith(JOINREQ_PREFIX),
                              JoinRequest.ApplicantUserId == user_id, consistent_read=True)
            if row.Status != "PENDING"]  # a pending one is withdrawn with its lock, later
    GroupItem.raw_batch_delete(mine)


def _to_guest(head: Group, me: Participant, user_id: str) -> None:
    """One transaction: participant -> GUEST (same id and name), guard gone, owners counted."""
    group_id = head.GroupId
    tx = Transaction()
    tx.update(Participant(group_id, me.SK),
              [Participant.Type.set(GUEST), Participant.UserId.remove(),
               Participant.ClaimedAt.remove(), Participant.Role.set(GUEST_ROLE),
               # an invitation it was claimed through no longer links it to the account
               Participant.InvitedUserId.remove(), Participant.InviteExpiresAt.remove(),
               Participant.UpdatedAt.set(now_iso())],
              condition=(Participant.Type == USER) & (Participant.UserId == user_id)
              & (Participant.Role == me.Role),
              on_fail=participant_changed())
    tx.delete(UserMember(group_id, UserMember.sort_key(user_id)))
    try:
        if me.Role == OWNER:
            change_counts(tx, head, owners=-1)  # OwnerCount > 1 checked when tx commits
        else:
            require_live_group(tx, group_id)
        tx.commit()
    except Conflict as error:
        if error.code == "LAST_OWNER":  # another user joined since the check before marking
            raise sole_owner([{"groupId": group_id, "name": head.Name}]) from error
        raise


def cancel_pending_requests(user_id: str) -> int:
    """Withdraw every PENDING join request of the user with its lock; returns how many.

    The request row goes rather than turning CANCELLED: it names an account that is being
    deleted, and a decided row would otherwise keep the applicant's id until it is pruned."""
    withdrawn = 0
    for request in list(JoinRequest.pending_for_applicant(user_id)):
        tx = Transaction()
        tx.delete(JoinRequest(request.GroupId, request.SK),
                  condition=(JoinRequest.Status == "PENDING")
                  & (JoinRequest.ApplicantUserId == user_id))
        tx.delete(JoinLock(request.GroupId, JoinLock.sort_key(user_id)),
                  condition=JoinLock.SK.does_not_exist()
                  | (JoinLock.RequestId == request.RequestId))
        try:
            tx.commit()
            withdrawn += 1
        except Conflict:
            pass  # decided or gone meanwhile (a group delete sweeps its own rows)
    return withdrawn
