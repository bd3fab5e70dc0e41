"""A user leaving every group at once (account deletion): the groups area's part of it.

The account area drives the order; these are the group-side steps, each idempotent so a
rerun after a crash only finishes what is left:
- :func:`sole_owner_groups` finds the groups that would be left without an owner while
  other users are still in them (account deletion refuses with 409 SOLE_OWNER);
- :func:`depart` turns the user's USER participant back into a GUEST that keeps its
  ParticipantId and display name (so history and balances do not move), removing its
  USERMEMBER guard and moving OwnerCount in the same transaction; a group in which the user
  is the only user goes with the account (the resumable group delete), fenced so nobody can
  join it between the roster read and the tombstone (see :func:`_delete_if_still_alone`);
- :func:`cancel_pending_requests` withdraws the user's pending join requests and locks."""
from __future__ import annotations

from typing import List, Optional

from app.errors import Conflict, sole_owner
from app.groups.errors import participant_changed, LastOwner
from app.core import scrub
from app.core import changelog
from app.core.clock import now_iso
from app.core.conditional import update_if
from app.core.transactions import Transaction
from app.groups import delete as group_delete
from app.groups.membership import GUEST, OWNER, USER, change_counts, require_live_group, roster
from models.groups import (JOINREQ_PREFIX, Balance, Group, GroupItem, GroupStatus, JoinLock,
                           JoinRequest, Participant, UserMember)

DELETED, CONVERTED, GONE = "deleted", "converted", "gone"
# Head status while a departing sole user's group is being fenced: still readable (only
# DELETING hides a group), but every membership write conditions on Status = ACTIVE
# (require_live_group, change_counts), so no one can join it until it is ACTIVE again.
ACTIVE, CLOSING = GroupStatus.ACTIVE, GroupStatus.CLOSING
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
        if head is None or head.Status != ACTIVE:
            continue
        if _sole_owner_with_others(roster(membership.GroupId), user_id):
            found.append({"groupId": head.GroupId, "name": head.Name})
    return found


def _sole_owner_with_others(rows: list, user_id: str) -> bool:
    users = [p for p in rows if p.Type == USER]
    owners = [p for p in users if p.Role == OWNER]
    others = [p for p in users if p.UserId != user_id]
    return bool(others) and [p.UserId for p in owners] == [user_id]


def depart(user_id: str, group_id: str, *, max_pages: Optional[int] = None) -> str:
    """Take the user out of one group; returns DELETED, CONVERTED or GONE (nothing to do).

    A group the user is alone in is deleted (its sweep stops after ``max_pages`` query pages;
    raises :class:`SweepIncomplete` then, and a rerun continues)."""
    head = _head(group_id)
    if head is None:
        return GONE
    if head.Status == group_delete.DELETING:
        return _finish_sweep(group_id, user_id, max_pages)
    rows = roster(group_id)
    if not _other_users(rows, user_id):
        # Nobody else signs in to this group: it goes with the account, unless someone
        # joined meanwhile (then it is reopened and the user leaves it like any other).
        if _delete_if_still_alone(head, user_id):
            return _finish_sweep(group_id, user_id, max_pages)
        head, rows = _head(group_id), roster(group_id)
    elif head.Status == CLOSING:  # a crash left the fence up after someone had joined
        _reopen(group_id)
    _forget_requests(group_id, user_id)  # before the conversion, which ends our finding it
    mine = [p for p in rows if p.Type == USER and p.UserId == user_id]
    if not mine:
        UserMember(group_id, UserMember.sort_key(user_id)).delete()  # a stray guard, if any
        return GONE
    # Before the conversion, which ends our finding the group again: a rerun scrubs anew.
    scrub.scrub_actor(group_id, mine[0].ParticipantId)
    _to_guest(head, mine[0], user_id)
    # And after it (the re-sweep): a money or comment write holds the caller's guard row,
    # not their profile (app.core.live), so one that passed its checks after the
    # mark may have logged a change since the first scrub. The conversion removed the guard
    # and moved the roster, so none lands after this.
    scrub.scrub_actor(group_id, mine[0].ParticipantId)
    return CONVERTED


SweepIncomplete = group_delete.SweepIncomplete


def _finish_sweep(group_id: str, user_id: str, max_pages: Optional[int]) -> str:
    """Sweep the tombstoned group; the user's participant row (what finds the group again,
    through UserParticipantsIndex, if this stops early) and guard go last."""
    mine = [row.SK for row in Participant.memberships(user_id, group_id)]
    last = tuple(mine) + (UserMember.sort_key(user_id),)
    if not group_delete.sweep(group_id, max_pages=max_pages, last=last):
        raise SweepIncomplete(f"group {group_id}: sweep stopped at its page budget")
    return DELETED


def _other_users(rows: list, user_id: str) -> list:
    return [p for p in rows if p.Type == USER and p.UserId != user_id]


def _delete_if_still_alone(head: Group, user_id: str) -> bool:
    """Fence, re-read, tombstone: True when the group was tombstoned with nobody else in it.

    Every way into a group (an invitation accepted, a join request approved, a guest added)
    commits only while the head is ACTIVE. So: (1) the head turns CLOSING, under ACTIVE;
    (2) a strongly consistent roster read now sees every join that committed before the
    fence, and no join can commit after it; (3) the tombstone conditions on the head still
    being CLOSING, which nothing but this function changes. A joiner either lands before
    (1), and the group is reopened for the user to leave like any other (409 SOLE_OWNER
    when they are its only owner), or fails with 404 because the group is going."""
    group_id = head.GroupId
    if head.Status == ACTIVE and not update_if(
            Group(*Group.key(group_id)), [Group.Status.set(CLOSING)], Group.Status == ACTIVE):
        head = _head(group_id)  # changed meanwhile: only a delete of ours could have
        return head is None or head.Status == group_delete.DELETING
    if _other_users(roster(group_id), user_id):
        _reopen(group_id)
        return False
    group_delete.tombstone(group_id, Group.Status.is_in(CLOSING, group_delete.DELETING))
    return True


def _reopen(group_id: str) -> None:
    update_if(Group(*Group.key(group_id)), [Group.Status.set(ACTIVE)], Group.Status == CLOSING)


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
    tx.update(Balance(*Balance.key(group_id)), [Balance.unbind_user(me.ParticipantId, user_id)])
    try:
        if me.Role == OWNER:
            # OwnerCount > 1 is checked when tx commits
            change_counts(tx, head, owners=-1, actor=me.ParticipantId)
        else:
            require_live_group(tx, group_id, roster_change=True)
        changelog.record(tx, head, me, actor=me.ParticipantId)
        tx.commit()
    except Conflict as error:
        if isinstance(error, LastOwner):  # another user joined since the check before marking
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
