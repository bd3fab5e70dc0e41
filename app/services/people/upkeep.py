"""Invitation upkeep: the row and reservation helpers, legacy repair, expiry and cascades.

Split from ``invitations`` (the use cases) so both stay small; ``invitations`` imports
this module, never the other way round."""
from __future__ import annotations

from typing import Optional

from app.errors import Conflict, NotFound, invitation_changed
from app.services.core.clock import new_id, now_iso
from app.services.core.transactions import Transaction
from app.services.groups.membership import GUEST, get_participant, require_live_group
from models.groups import Participant
from models.people import GroupInvitation
from models.users import Profile


def load_invitation(invitee_id: str, group_id: str) -> Optional[GroupInvitation]:
    try:
        return GroupInvitation.get(*GroupInvitation.key(invitee_id, group_id),
                                   consistent_read=True)
    except GroupInvitation.DoesNotExist:
        return None


def clear_reservation(tx: Transaction, row: GroupInvitation) -> None:
    """Drop the guest's deadline if it is still this invitation's reservation."""
    if row.ParticipantId is None:
        return
    try:
        guest = get_participant(row.GroupId, row.ParticipantId)
    except NotFound:  # the guest was removed: nothing to clear
        return
    if guest.InvitedUserId != row.InviteeUserId or guest.InviteExpiresAt != row.ExpiresAt:
        return
    tx.update(Participant(row.GroupId, guest.SK), [Participant.InviteExpiresAt.remove()],
              condition=(Participant.InvitedUserId == row.InviteeUserId)
              & (Participant.InviteExpiresAt == row.ExpiresAt),
              on_fail=invitation_changed())


def drop_for_removed_guest(group_id: str, invitee_id: str, participant_id: str) -> None:
    """Public hook for a guest's removal: its invitation goes too (if it still names it)."""
    row = load_invitation(invitee_id, group_id)
    if row is None or row.ParticipantId != participant_id:
        return
    tx = Transaction()
    tx.delete(GroupInvitation(row.PK, row.SK),
              condition=GroupInvitation.ParticipantId == participant_id)
    try:
        tx.commit()
    except Conflict:  # replaced or consumed meanwhile: nothing of ours left
        pass


def repair_legacy(row: GroupInvitation) -> GroupInvitation:
    """Give an invitation written before reservations a reserved guest, keeping its role,
    inviter and deadline; one conditional cross-table transaction, safe to race."""
    profile_name = display_name(row.InviteeUserId, "Guest")
    participant_id, now = new_id(), now_iso()
    tx = Transaction()
    require_live_group(tx, row.GroupId)
    tx.update(GroupInvitation(row.PK, row.SK),
              [GroupInvitation.ParticipantId.set(participant_id)],
              condition=(GroupInvitation.ParticipantId.does_not_exist()
                         & (GroupInvitation.CreatedAt == row.CreatedAt)
                         & (GroupInvitation.ExpiresAt == row.ExpiresAt)),
              on_fail=invitation_changed())
    tx.put(Participant(row.GroupId, Participant.sort_key(participant_id),
                       ParticipantId=participant_id, Type=GUEST, DisplayName=profile_name,
                       Role=row.Role, InvitedUserId=row.InviteeUserId,
                       InviteExpiresAt=row.ExpiresAt, CreatedAt=now, UpdatedAt=now),
           condition=Participant.SK.does_not_exist())
    tx.commit()
    row.ParticipantId = participant_id
    return row


def expire_invitations(now: Optional[str] = None, *, limit: int = 500) -> dict:
    """Maintenance: delete expired invitations and their guests' stale deadlines (history
    and link stay). Bounded per run; each invitation is its own conditional transaction."""
    now = now or now_iso()
    swept = 0
    for row in GroupInvitation.all_rows(filter_condition=GroupInvitation.ExpiresAt <= now,
                                        limit=limit):
        tx = Transaction()
        tx.delete(GroupInvitation(row.PK, row.SK),
                  condition=(GroupInvitation.CreatedAt == row.CreatedAt)
                  & (GroupInvitation.ExpiresAt <= now))
        clear_reservation(tx, row)
        try:
            tx.commit()
            swept += 1
        except Conflict:  # renewed, accepted or withdrawn meanwhile
            continue
    return {"invitationsExpired": swept}


def display_name(user_id: str, fallback: str) -> str:
    try:
        return Profile.get(*Profile.key(user_id)).DisplayName
    except Profile.DoesNotExist:
        return fallback
