"""Invitation rows and the reservations they hold: reading one, clearing its guest's
deadline, dropping the inviter's pointer, and the cascades other areas trigger (a guest
removed, through app.core.cascades; an inviter's account deleted).

Split from ``invitations`` (the use cases) so both stay small; ``invitations`` and
``invitation_expiry`` import this module, never the other way round."""
from __future__ import annotations

from typing import Optional

from app.errors import Conflict, NotFound
from app.people.errors import invitation_changed
from app.core import cascades, changelog
from app.core.transactions import Transaction
from app.groups.membership import get_participant
from models.groups import Participant
from models.people import GroupInvitation
from models.users import Profile, SentInvitation


def load_invitation(invitee_id: str, group_id: str) -> Optional[GroupInvitation]:
    try:
        return GroupInvitation.get(*GroupInvitation.key(invitee_id, group_id),
                                   consistent_read=True)
    except GroupInvitation.DoesNotExist:
        return None


def clear_reservation(tx: Transaction, row: GroupInvitation) -> None:
    """Drop the guest's deadline if it is still this invitation's reservation."""
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
    changelog.record(tx, row.GroupId, guest)


def drop_sent_pointer(tx: Transaction, row: GroupInvitation) -> None:
    """The inviter's pointer goes with the invitation it names (accepted or withdrawn)."""
    tx.delete(SentInvitation(row.InvitedBy,
                             SentInvitation.sort_key(row.GroupId, row.InviteeUserId)))


@cascades.guest_removed.register
def drop_for_removed_guest(group_id: str, invitee_id: str, participant_id: str) -> None:
    """A guest's removal (app.groups, below people): its invitation goes too (if it still
    names it)."""
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


def withdraw_sent_by(inviter_id: str, invitee_id: str, group_id: str) -> bool:
    """Withdraw the invitation if this inviter's (their account is being deleted); the
    reserved guest stays, as on a revoke. True when withdrawn."""
    row = load_invitation(invitee_id, group_id)
    if row is None or row.InvitedBy != inviter_id:
        return False  # consumed, withdrawn, or replaced by another owner's
    tx = Transaction()
    tx.delete(GroupInvitation(row.PK, row.SK),
              condition=(GroupInvitation.CreatedAt == row.CreatedAt)
              & (GroupInvitation.InvitedBy == inviter_id))
    clear_reservation(tx, row)
    drop_sent_pointer(tx, row)
    return commit_or_skip(tx)


def commit_or_skip(tx: Transaction) -> bool:
    """Commit; False when a condition no longer holds (the row changed meanwhile)."""
    try:
        tx.commit()
        return True
    except Conflict:  # renewed, accepted or withdrawn meanwhile
        return False


def display_name(user_id: str, fallback: str) -> str:
    try:
        return Profile.get(*Profile.key(user_id)).DisplayName
    except Profile.DoesNotExist:
        return fallback
