"""Who may do what in a group: (UserId, GroupId) -> participant and role, in one read.

The USERMEMBER guard row mirrors the member's ParticipantId and Role, so authorization is a
single strongly consistent BatchGetItem of the group head and the caller's guard row. A
non-member gets NotFound (no existence leak), a member whose role is too low gets Forbidden,
and a group whose head is DELETING (being removed) or IMPORTING (being filled by an import
that has not finished) is gone for everyone."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional

from app.errors import (DomainError, Forbidden, Unauthenticated, concurrent_update,
                        group_archived, group_not_found)
from app.core import request_reads
from app.core.clock import now_iso
from app.core.transactions import Transaction
from models.groups import Group, GroupItem, GroupStatus, Participant, ShareLink, UserMember

ROLE_RANK = {"VIEWER": 1, "MEMBER": 2, "OWNER": 3}
ROLES = tuple(ROLE_RANK)


@dataclass(frozen=True)
class Access:
    """A caller's standing in one live group."""

    group: Group
    user_id: str
    participant_id: str
    role: str
    # Raw rows of the group read in the same BatchGetItem that authorized, by sort key (None
    # when absent): a use case that needs one (BALANCE#v1) saves a round trip.
    prefetched: Mapping[str, Optional[dict]] = field(default_factory=dict, compare=False)
    # The balance row as this request's money writes know it for their next write: read, or
    # with the seats the last committed one left (app.ledger.balances.row_of). Only its
    # seats are current: never read for money (the nets in it are the ones read).
    written: dict = field(default_factory=dict, compare=False)
    # A share-link session's link (docs/share-links.md): the caller is its guest, not an
    # account, and its right lives on the link row instead of a guard row.
    link_id: Optional[str] = None

    @property
    def group_id(self) -> str:
        return self.group.GroupId

    def at_least(self, role: str) -> bool:
        return ROLE_RANK[self.role] >= ROLE_RANK[role]


# Head statuses that hide a group from every reader and writer.
UNREADABLE = (GroupStatus.DELETING, GroupStatus.IMPORTING)


def is_live(group) -> bool:
    return group is not None and group.Status not in UNREADABLE


def refuse_archived(head: Group, writing: bool) -> None:
    """The one check that makes an archived group read-only: every group write is
    authorized here with ``writing=True`` (app.api.needs: every non-GET route of a group
    but the few that say ``while_archived``; the MCP write tools; chat confirm), and
    refused 409 GROUP_ARCHIVED. The request remembers it, so a write authorized just
    before an archive landed is refused when its change-log bump finds the head archived
    (app.core.changelog), not renumbered through."""
    if not writing:
        return
    request_reads.remember_writing(head.GroupId)
    if head.archived:
        raise group_archived()


def authorize(user_id: str, group_id: str, min_role: str = "VIEWER", *,
              prefetch: Iterable[str] = (), writing: bool = False) -> Access:
    """The caller's access to a live group, or NotFound / Forbidden (and 409
    GROUP_ARCHIVED for a write, ``writing``, in an archived group: :func:`refuse_archived`).

    ``prefetch`` names more sort keys of the group to read in the same consistent
    BatchGetItem; their raw items land in ``Access.prefetched``."""
    prefetch = tuple(prefetch)
    keys = [Group.key(group_id), (group_id, UserMember.sort_key(user_id))]
    keys += [(group_id, sort_key) for sort_key in prefetch]
    # The request's liveness read may have read these already (request_reads).
    rows = request_reads.take_group_rows(user_id, group_id, [key[1] for key in keys])
    if rows is None:
        rows = GroupItem.raw_batch_get(keys, consistent_read=True)
    head = Group.from_raw(rows.get(Group.key(group_id)))
    guard = UserMember.from_raw(rows.get((group_id, UserMember.sort_key(user_id))))
    if not is_live(head) or guard is None:
        raise group_not_found()
    access = Access(group=head, user_id=user_id, participant_id=guard.ParticipantId,
                    role=guard.Role or "VIEWER",
                    prefetched={sk: rows.get((group_id, sk)) for sk in prefetch})
    if not access.at_least(min_role):
        raise Forbidden(f"This needs the {min_role} role in the group.")
    refuse_archived(head, writing)
    return access


def authorize_link(session, user_id: str, group_id: str, min_role: str = "VIEWER", *,
                   prefetch: Iterable[str] = (), writing: bool = False) -> Access:
    """A share-link session's access to its group, or NotFound / Unauthenticated / Forbidden.

    ``session`` (app.auth.principal.LinkSession) names the group, link and guest its token
    was signed for; ``user_id`` is the session's stand-in (app.auth.principal.link_user_id). One strongly consistent BatchGetItem reads the head, the link row, the
    guest's participant row and ``prefetch``: as many keys as a member's authorization and
    liveness read (head, guard row, profile), so a session costs no call more (bench). A
    revoked (deleted) or expired link, or a guest since claimed or removed, is 401 on the
    very next request; another group's path is 404, as for any stranger."""
    if str(group_id) != session.group_id:
        raise group_not_found()
    return _authorize_link(session.group_id, session.link_id, session.participant_id,
                           user_id, min_role, tuple(prefetch), writing)


def _authorize_link(group_id: str, link_id: str, participant_id: str, user_id: str,
                    min_role: str, prefetch: tuple, writing: bool = False) -> Access:
    keys = [Group.key(group_id), (group_id, ShareLink.sort_key(link_id)),
            (group_id, Participant.sort_key(participant_id))]
    keys += [(group_id, sort_key) for sort_key in prefetch]
    rows = GroupItem.raw_batch_get(keys, consistent_read=True)
    head = Group.from_raw(rows.get(Group.key(group_id)))
    if not is_live(head):
        raise group_not_found()
    link = ShareLink.from_raw(rows.get(keys[1]))
    refusal = link_refusal(link, Participant.from_raw(rows.get(keys[2])))
    if refusal is not None:
        raise Unauthenticated(refusal)
    access = Access(group=head, user_id=user_id, participant_id=participant_id,
                    role=link.Role, prefetched={sk: rows.get((group_id, sk)) for sk in prefetch},
                    link_id=link_id)
    if not access.at_least(min_role):
        raise Forbidden(f"This needs the {min_role} role in the group.")
    refuse_archived(head, writing)
    request_reads.remember_link_guest(participant_id)
    return access


def link_refusal(link: Optional[ShareLink], guest: Optional[Participant]) -> Optional[str]:
    """Why a session of ``link`` acting as ``guest`` (the rows as read now) is refused, or
    None while the link stands and its guest is still a guest. Shared with the realtime
    admission, so a session's socket ends on exactly what ends its requests."""
    if link is None or (link.ValidUntil and link.ValidUntil <= now_iso()):
        return "This share link was revoked or has expired."
    if guest is None or guest.Type != "GUEST":
        return "This share link's guest was claimed or removed."
    return None


def require_link(tx: Transaction, access: Access, min_role: str) -> None:
    """A link session's :func:`require_role`: its link still stands (not revoked, not
    expired, its role at least ``min_role``) and its guest is still a guest when ``tx``
    commits. ``tx`` must not also write either row."""
    allowed = [role for role in ROLES if ROLE_RANK[role] >= ROLE_RANK[min_role]]
    link_condition = ShareLink.Role.is_in(*allowed) & (
        ShareLink.ValidUntil.does_not_exist() | (ShareLink.ValidUntil > now_iso()))
    tx.check(ShareLink, access.group_id, ShareLink.sort_key(access.link_id),
             condition=link_condition, on_fail=lambda _old: _lost_access(access, min_role))
    tx.check(Participant, access.group_id, Participant.sort_key(access.participant_id),
             condition=Participant.Type == "GUEST",
             on_fail=lambda _old: _lost_access(access, min_role))


def require_role(tx: Transaction, access: Access, min_role: str, *,
                 account_live: bool = True) -> None:
    """The caller must still hold ``min_role`` (as the same participant) when ``tx`` commits.

    :func:`authorize` read the guard row before the write; a removal or demotion landing
    between that read and the commit would otherwise let a write by someone who has lost
    the right through. ``tx`` must not also write this guard row (DynamoDB refuses a check
    and a write of one item in one transaction).

    ``account_live=False``: no check of the caller's profile. Only for rows that are the
    group's history (money, comments): the guard row stands in for it, see
    app.core.live."""
    if access.link_id is not None:
        require_link(tx, access, min_role)
        return
    condition = UserMember.ParticipantId == access.participant_id
    if ROLE_RANK[min_role] > ROLE_RANK["VIEWER"]:
        allowed = [role for role in ROLES if ROLE_RANK[role] >= ROLE_RANK[min_role]]
        condition &= UserMember.Role.is_in(*allowed)
    tx.check(UserMember, access.group_id, UserMember.sort_key(access.user_id),
             condition=condition, on_fail=lambda _old: _lost_access(access, min_role))
    if account_live:
        tx.require_live_account(access.user_id)  # and the caller's account is not being deleted


def reauthorize(access: Access, min_role: str) -> Access:
    """Authorize ``access``'s caller afresh (its 404 / 401 / 403 if it lost the right)."""
    if access.link_id is not None:
        return _authorize_link(access.group_id, access.link_id, access.participant_id,
                               access.user_id, min_role, ())
    return authorize(access.user_id, access.group_id, min_role)


def _lost_access(access: Access, min_role: str) -> DomainError:
    """Why the guard check failed, as authorize now answers it (404 gone, 403 demoted)."""
    try:
        reauthorize(access, min_role)
    except DomainError as error:
        return error
    return concurrent_update()  # changed and changed back meanwhile: retrying is safe


def load_live_group(group_id: str) -> Group:
    """The group head, treating a missing, DELETING or IMPORTING head as not found."""
    try:
        head = Group.get(*Group.key(group_id), consistent_read=True)
    except (Group.DoesNotExist, ValueError):
        raise group_not_found() from None
    if not is_live(head):
        raise group_not_found()
    return head
