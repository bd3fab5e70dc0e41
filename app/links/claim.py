"""Claiming a link's guest into an account: the same participant (same participantId, every
expense still theirs) becomes the caller's USER participant with the link's role, as a
TAKEOVER the link approves, in one TransactWrite with the USERMEMBER guard and the balance
row's Users set (the way app.groups.join_requests approves a TAKEOVER)."""
from __future__ import annotations

from typing import Callable

from app.core import changelog
from app.core.access import refuse_archived
from app.core.clock import now_iso
from app.core.transactions import Transaction
from app.errors import Unauthenticated, already_member, group_not_found, target_not_guest
from app.groups.membership import GUEST, USER, require_live_group
from app.links import sessions
from app.links.errors import link_not_found
from models.groups import (Balance, Group, GroupItem, Participant, ShareLink, UserMember)
from models.users import Profile


def claim(user_id: str, group_id: str, session_token: str, *,
          spend: Callable[[str], None]) -> Participant:
    """The claimed participant. 409 ALREADY_MEMBER (the caller is in the group already),
    409 TARGET_NOT_GUEST (the guest was claimed already); a session of another group → 404."""
    try:
        session = sessions.verify(session_token)
    except Unauthenticated as error:
        raise Unauthenticated(error.message, details={"sessionToken": ["Not a valid session."]}) \
            from None
    spend(session.link_id)
    if session.group_id != str(group_id):
        raise group_not_found()
    keys = [Group.key(group_id), (group_id, ShareLink.sort_key(session.link_id)),
            (group_id, Participant.sort_key(session.participant_id)),
            (group_id, UserMember.sort_key(user_id))]
    rows = GroupItem.raw_batch_get(keys, consistent_read=True)
    head = Group.from_raw(rows.get(keys[0]))
    link = ShareLink.from_raw(rows.get(keys[1]))
    guest = Participant.from_raw(rows.get(keys[2]))
    if head is None or head.Status != "ACTIVE":
        raise group_not_found()
    refuse_archived(head, writing=True)  # a claim changes the roster: archived is read-only
    if link is None or (link.ValidUntil and link.ValidUntil <= now_iso()):
        raise link_not_found()
    if rows.get(keys[3]) is not None:
        raise already_member()
    if guest is None or guest.Type != GUEST:
        raise target_not_guest()
    try:
        name = Profile.get(*Profile.key(user_id), consistent_read=True).DisplayName
    except Profile.DoesNotExist:
        raise Unauthenticated("This sign-in is not linked to an account.") from None
    now, role = now_iso(), link.Role
    tx = Transaction().require_live_account(user_id)
    require_live_group(tx, group_id, roster_change=True)
    tx.check(ShareLink, group_id, link.SK, condition=ShareLink.SK.exists(),
             on_fail=link_not_found())
    tx.update(Participant(group_id, guest.SK), [
        Participant.Type.set(USER), Participant.UserId.set(user_id),
        Participant.DisplayName.set(name), Participant.Role.set(role),
        Participant.ClaimedAt.set(now), Participant.UpdatedAt.set(now),
        Participant.InviteExpiresAt.remove(), Participant.InvitedUserId.remove()],
        condition=(Participant.Type == GUEST) & Participant.TransferTarget.does_not_exist(),
        on_fail=target_not_guest())
    tx.put(UserMember(group_id, UserMember.sort_key(user_id), ParticipantId=guest.ParticipantId,
                      Role=role, CreatedAt=now),
           condition=UserMember.SK.does_not_exist(), on_fail=already_member())
    tx.update(Balance(*Balance.key(group_id)), [Balance.bind_user(guest.ParticipantId, user_id)])
    changelog.record(tx, head, guest, changelog.UPDATE, actor=guest.ParticipantId)
    tx.commit()
    guest.Type, guest.UserId, guest.DisplayName, guest.Role, guest.ClaimedAt = \
        USER, user_id, name, role, now
    return guest
