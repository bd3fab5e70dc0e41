"""Invitation upkeep: the row and reservation helpers, legacy repair, expiry and cascades.

Split from ``invitations`` (the use cases) so both stay small; ``invitations`` imports
this module, never the other way round."""
from __future__ import annotations

from typing import Optional

from app.errors import Conflict, NotFound, invitation_changed
from app.services.core import changelog
from app.services.core.clock import new_id, now_iso
from app.services.core.conditional import delete_if
from app.services.core.sweeps import scan_pages
from app.services.core.transactions import Transaction
from app.services.groups.membership import GUEST, get_participant, require_live_group
from models.groups import Participant
from models.people import USER_PREFIX, GroupInvitation, PeopleItem
from models.users import Profile, SentInvitation


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
    changelog.record(tx, row.GroupId, guest)


def drop_sent_pointer(tx: Transaction, row: GroupInvitation) -> None:
    """The inviter's pointer goes with the invitation it names (accepted or withdrawn)."""
    invitee = row.InviteeUserId or row.PK[len(USER_PREFIX):]  # legacy rows lack the copy
    tx.delete(SentInvitation(row.InvitedBy, SentInvitation.sort_key(row.GroupId, invitee)))


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
    changelog.record(tx, row.GroupId, Participant(row.GroupId, Participant.sort_key(participant_id)),
                     changelog.CREATE)
    tx.commit()
    row.ParticipantId = participant_id
    return row


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
    return _commit_or_skip(tx)


def _commit_or_skip(tx: Transaction) -> bool:
    try:
        tx.commit()
        return True
    except Conflict:  # renewed, accepted or withdrawn meanwhile
        return False


# Each maintenance run expires at most this many invitations per shard of the due index,
# and walks at most LEGACY_PAGES scan pages for invitations sent before the index existed.
EXPIRY_BATCH = 50
LEGACY_SWEEP = "invitation-expiry-legacy"
LEGACY_PAGES, LEGACY_PAGE_SIZE = 2, 500


def _expire(row: GroupInvitation, now: str) -> bool:
    tx = Transaction()
    tx.delete(GroupInvitation(row.PK, row.SK),
              condition=(GroupInvitation.CreatedAt == row.CreatedAt)
              & (GroupInvitation.ExpiresAt <= now))
    clear_reservation(tx, row)
    return _commit_or_skip(tx)


def expire_invitations(now: Optional[str] = None) -> dict:
    """Maintenance: delete expired invitations and their guests' stale deadlines (history
    and link stay), found through the inviters' SentInvitation pointers, which
    ScanRecoveryIndex files by expiry: a bounded Query per shard, never a Scan of People.
    Each invitation is its own conditional transaction; its pointer goes after it (unless
    a newer invitation renewed it), so a crash repeats at most that one."""
    now, swept = now or now_iso(), 0
    for shard in SentInvitation.shards():
        for inviter_id, sort_key in SentInvitation.due(shard, now, EXPIRY_BATCH):
            group_id, invitee_id = SentInvitation.parse_sort_key(sort_key)
            row = load_invitation(invitee_id, group_id)
            if row is not None and row.ExpiresAt <= now:
                swept += _expire(row, now)
            delete_if(SentInvitation(inviter_id, sort_key), SentInvitation.RecoveryDueAt <= now)
    return {"invitationsExpired": swept + _expire_legacy(now)}


def _expire_legacy(now: str) -> int:
    """Invitations sent before the pointers: a resumable walk of a few pages per run (they
    expire within INVITE_TTL of the upgrade, so this finds less and less)."""
    swept = 0
    expired = (PeopleItem.EntityType == GroupInvitation) & (GroupInvitation.ExpiresAt <= now)
    for items in scan_pages(PeopleItem, LEGACY_SWEEP, filter_condition=expired,
                            page_size=LEGACY_PAGE_SIZE, max_pages=LEGACY_PAGES):
        for item in items:
            row = PeopleItem.from_raw_data(item)
            if isinstance(row, GroupInvitation):
                swept += _expire(row, now)
    return swept


def display_name(user_id: str, fallback: str) -> str:
    try:
        return Profile.get(*Profile.key(user_id)).DisplayName
    except Profile.DoesNotExist:
        return fallback
