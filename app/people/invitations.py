"""Direct invitations: an OWNER invites a user into a group, into a reserved GUEST slot.

The invitation (``GROUPINVITE#<gid>`` in the invitee's People partition, listed per group by
GroupInvitesIndex) and the guest's reservation (InvitedUserId + InviteExpiresAt) are written
in one TransactWrite. Accept consumes the invitation, turns that same guest into the
invitee's USER participant (same ParticipantId, so every expense already assigned to it
stays theirs) and writes the USERMEMBER guard, in one transaction conditioned on the
invitation's creation, deadline and participant and on the guest's link and deadline.
Decline and revoke delete the invitation and the deadline but keep the guest and the link.
The invitee is always MEMBER or VIEWER, so OwnerCount never moves here."""
from __future__ import annotations

from typing import Optional

from app.errors import Invalid, NotFound, already_member, not_found
from app.people.errors import guest_unavailable, invitation_changed, invitation_expired, invitation_pending
from app.core import changelog, outbox, paging
from app.core.access import Access, load_live_group, refuse_archived
from app.core.clock import iso_in, new_id, now_iso
from app.core.transactions import Transaction
from app.groups.membership import (GUEST, USER, change_counts, get_participant,
                                   require_live_group, require_still_owner)
from app.people import friends
from app.people.invitation_rows import (clear_reservation, display_name, drop_sent_pointer,
                                        load_invitation)
from models.groups import Balance, Participant, UserMember
from models.people import GroupInvitation
from models.users import Profile, SentInvitation

INVITE_TTL_SECONDS = 14 * 24 * 3600
INVITE_ROLES = ("MEMBER", "VIEWER")


def reservable(now: str):
    """A guest nobody holds: GUEST, no live reservation, not mid-transfer."""
    return ((Participant.Type == GUEST)
            & (Participant.InviteExpiresAt.does_not_exist() | (Participant.InviteExpiresAt <= now))
            & Participant.TransferTarget.does_not_exist())


def reservable_guest(group_id: str, participant_id: str, now: str) -> Participant:
    """The guest an invitation may be bound to: a guest, not reserved for anyone now and not
    being taken over (409 GUEST_UNAVAILABLE); the write re-checks it with :func:`reservable`."""
    guest = get_participant(group_id, participant_id)
    if guest.Type != GUEST or (guest.InviteExpiresAt or "") > now or guest.TransferTarget:
        raise guest_unavailable()
    return guest


def _invitee(access: Access, invitee_id: str) -> Profile:
    """The invitee's profile, if the owner may see them: a friend, or discoverable. Anyone
    else reads as missing, so ids cannot be probed for existence."""
    try:
        profile = Profile.get(*Profile.key(invitee_id), consistent_read=True)
    except (Profile.DoesNotExist, ValueError):
        profile = None
    if profile is None or not (profile.Discoverable
                               or friends.are_friends(access.user_id, invitee_id)):
        raise not_found("User")
    return profile


def invite(access: Access, invitee_id: str, *, role: str,
           participant_id: Optional[str] = None) -> GroupInvitation:
    """Invite a user (OWNER), reserving a new guest or the named unreserved one for them."""
    if role not in INVITE_ROLES:
        raise Invalid("An invitation grants MEMBER or VIEWER.",
                      details={"role": ["Must be MEMBER or VIEWER."]})
    if invitee_id == access.user_id:
        raise already_member("You are")
    profile = _invitee(access, invitee_id)
    group_id, now = access.group_id, now_iso()
    try:
        UserMember.get(group_id, UserMember.sort_key(invitee_id), consistent_read=True)
        raise already_member("The user is")
    except UserMember.DoesNotExist:
        pass
    existing = load_invitation(invitee_id, group_id)
    if existing is not None and existing.ExpiresAt > now:
        raise invitation_pending()
    expires = iso_in(INVITE_TTL_SECONDS)

    # The invitation is the inviter's and lands in the invitee's partition: both live.
    tx = Transaction().require_live_account(invitee_id, on_fail=not_found("User"))
    require_still_owner(tx, access)
    tx.check(UserMember, group_id, UserMember.sort_key(invitee_id),
             condition=UserMember.SK.does_not_exist(), on_fail=already_member("The user is"))
    if participant_id is None:
        # A guest kept from an earlier invitation of this user is theirs to take up again.
        participant_id = _linked_guest(group_id, invitee_id, now)
    created = participant_id is None
    if participant_id is not None:
        require_live_group(tx, group_id)
        guest = reservable_guest(group_id, participant_id, now)
        tx.update(Participant(group_id, guest.SK),
                  [Participant.InvitedUserId.set(invitee_id),
                   Participant.InviteExpiresAt.set(expires), Participant.UpdatedAt.set(now)],
                  condition=Participant.SK.exists() & reservable(now),
                  on_fail=guest_unavailable())
    else:
        # A new guest is a participant like any other: it counts against the group's cap
        # (409 GROUP_FULL), in the same head update that proves the group is live.
        change_counts(tx, access.group, participants=1)
        participant_id = new_id()
        guest = Participant(group_id, Participant.sort_key(participant_id),
                            ParticipantId=participant_id, Type=GUEST,
                            DisplayName=profile.DisplayName, Role=role, InvitedUserId=invitee_id,
                            InviteExpiresAt=expires, CreatedAt=now, UpdatedAt=now)
        tx.put(guest, condition=Participant.SK.does_not_exist())
    row = GroupInvitation.build(invitee_id, group_id, Role=role, ParticipantId=participant_id,
                                InvitedBy=access.user_id, CreatedAt=now, ExpiresAt=expires,
                                GroupName=access.group.Name)
    # An expired invitation may be replaced; a live one may not (a racing invite loses here).
    tx.put(row, condition=(GroupInvitation.PK.does_not_exist()
                           | (GroupInvitation.ExpiresAt <= now)),
           on_fail=invitation_pending())
    # The inviter's pointer: their account deletion withdraws it, the expiry sweep finds it.
    tx.put(SentInvitation.build(access.user_id, group_id, invitee_id, expires))
    outbox.add_event(tx, "GROUP_INVITATION", scope_id=group_id, resource_id=invitee_id,
                     revision=now, actor_user_id=access.user_id, group_id=group_id,
                     recipients={invitee_id},
                     payload={"participantId": participant_id, "role": role})
    changelog.record(tx, access.group, guest, changelog.CREATE if created else changelog.UPDATE,
                     actor=access.participant_id)
    tx.commit()
    return row


def _linked_guest(group_id: str, invitee_id: str, now: str) -> Optional[str]:
    for row in Participant.roster(group_id, consistent_read=True):
        if (row.Type == GUEST and row.InvitedUserId == invitee_id and not row.TransferTarget
                and (row.InviteExpiresAt or "") <= now):
            return row.ParticipantId
    return None


def group_invitations(access: Access, *, limit: Optional[int], cursor: Optional[str],
                      scope: str) -> paging.Page:
    """The group's pending (unexpired) invitations (OWNER), by invitee."""
    rows = GroupInvitation.for_group(access.group_id, limit=paging.clamp_limit(limit),
                                     last_evaluated_key=paging.decode(cursor, scope))
    page = paging.page_of(rows, scope)
    now = now_iso()
    page.items = [row for row in page.items if row.ExpiresAt > now]
    return page


def my_invitations(user_id: str, *, limit: Optional[int], cursor: Optional[str],
                   scope: str) -> paging.Page:
    """The caller's pending (unexpired) invitations."""
    rows = GroupInvitation.for_invitee(user_id, limit=paging.clamp_limit(limit),
                                       last_evaluated_key=paging.decode(cursor, scope),
                                       consistent_read=True)
    page = paging.page_of(rows, scope)
    now = now_iso()
    page.items = [row for row in page.items if row.ExpiresAt > now]
    return page


def _invitation_unchanged(row: GroupInvitation):
    """The invitation is still the one read: same creation, deadline and participant."""
    return ((GroupInvitation.CreatedAt == row.CreatedAt)
            & (GroupInvitation.ExpiresAt == row.ExpiresAt)
            & (GroupInvitation.ParticipantId == row.ParticipantId))


def accept(user_id: str, group_id: str) -> dict:
    """Claim the reserved guest as the caller's USER participant; returns ``{groupId,
    participant}``. Expired → 409 INVITATION_EXPIRED; slot changed → 409 INVITATION_CHANGED."""
    row = load_invitation(user_id, group_id)
    if row is None:
        raise not_found("Invitation")
    now = now_iso()
    if row.ExpiresAt <= now:
        raise invitation_expired()
    # joining writes the roster: an archived group is read-only (409 GROUP_ARCHIVED)
    refuse_archived(load_live_group(group_id), writing=True)
    try:
        guest = get_participant(group_id, row.ParticipantId)
    except NotFound:  # the slot is gone
        raise invitation_changed() from None
    if guest.Type != GUEST or guest.InvitedUserId != user_id:
        raise invitation_changed()
    name = display_name(user_id, guest.DisplayName)

    tx = Transaction().require_live_account(user_id)
    require_live_group(tx, group_id, roster_change=True)
    tx.delete(GroupInvitation(*GroupInvitation.key(user_id, group_id)),
              condition=_invitation_unchanged(row) & (GroupInvitation.ExpiresAt > now),
              on_fail=invitation_changed())
    # Same row, same ParticipantId: the guest's history is now the member's. InvitedUserId
    # stays as the durable link; the deadline goes with the reservation.
    tx.update(Participant(group_id, guest.SK), [
        Participant.Type.set(USER), Participant.UserId.set(user_id),
        Participant.DisplayName.set(name), Participant.Role.set(row.Role),
        Participant.ClaimedAt.set(now), Participant.UpdatedAt.set(now),
        Participant.InviteExpiresAt.remove()],
        condition=((Participant.Type == GUEST) & (Participant.InvitedUserId == user_id)
                   & (Participant.InviteExpiresAt == row.ExpiresAt)
                   & (Participant.InviteExpiresAt > now)
                   & Participant.TransferTarget.does_not_exist()),
        on_fail=invitation_changed())
    tx.put(UserMember(group_id, UserMember.sort_key(user_id), ParticipantId=row.ParticipantId,
                      Role=row.Role, CreatedAt=now),
           condition=UserMember.SK.does_not_exist(), on_fail=already_member())
    tx.update(Balance(*Balance.key(group_id)), [Balance.bind_user(row.ParticipantId, user_id)])
    drop_sent_pointer(tx, row)
    changelog.record(tx, group_id, guest, actor=row.ParticipantId)
    tx.commit()
    guest.Type, guest.UserId, guest.DisplayName, guest.Role = USER, user_id, name, row.Role
    guest.ClaimedAt = now
    return {"groupId": group_id, "participant": guest}


def decline(user_id: str, group_id: str) -> None:
    """The invitee says no: the invitation and the guest's deadline go, the guest stays."""
    row = load_invitation(user_id, group_id)
    if row is None:
        raise not_found("Invitation")
    _withdraw(row)


def revoke(access: Access, invitee_id: str) -> None:
    """An OWNER withdraws an invitation: as a decline, the guest and its history stay."""
    row = load_invitation(invitee_id, access.group_id)
    if row is None:
        raise not_found("Invitation")
    _withdraw(row, owner=access)


def _withdraw(row: GroupInvitation, owner: Optional[Access] = None) -> None:
    tx = Transaction()
    tx.delete(GroupInvitation(row.PK, row.SK),
              condition=(GroupInvitation.CreatedAt == row.CreatedAt),
              on_fail=invitation_changed())
    clear_reservation(tx, row)
    drop_sent_pointer(tx, row)
    if owner is not None:
        require_still_owner(tx, owner)
    tx.commit()
