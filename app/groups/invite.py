"""Invite links: the owner's settings, rotation, and the code-holder's preview.

A disabled, absent or wrong-code invite reads as missing (NotFound) and is checked before
anything else of the group is read, so a code guesser learns nothing."""
from __future__ import annotations

import hmac
from typing import Optional


from app.groups.errors import invite_not_found
from app.core.access import Access, load_live_group
from app.core.clock import now_iso
from app.groups.codes import new_invite_code
from app.core.transactions import Transaction
from app.core.conditional import update_if
from models.groups import Invite, Participant

GUEST = "GUEST"


def _load(group_id: str) -> Invite:
    try:
        return Invite.get(*Invite.key(group_id), consistent_read=True)
    except Invite.DoesNotExist:
        raise invite_not_found() from None


def require_valid_code(group_id: str, code: str) -> Invite:
    """The enabled invite whose code is ``code``; anything else is NotFound.

    Consistent read, so a rotated or disabled code stops working at once."""
    invite = _load(group_id)
    if not invite.Enabled or not hmac.compare_digest(invite.Code.encode(), code.encode()):
        raise invite_not_found()
    return invite


def check_code_still_valid(tx: Transaction, group_id: str, code: str) -> None:
    """Add to ``tx`` a check that the invite is still enabled with this code at commit time."""
    tx.check(Invite, *Invite.key(group_id),
             condition=(Invite.Enabled == True) & (Invite.Code == code),  # noqa: E712
             on_fail=invite_not_found())


def get_invite(access: Access) -> Invite:
    """The invite settings (owners see them even while disabled, to turn them back on)."""
    return _load(access.group_id)


def update_invite(access: Access, *, enabled: Optional[bool] = None,
                  default_role: Optional[str] = None) -> Invite:
    """Switch the link on or off and/or change the role new joiners are proposed."""
    actions = [Invite.UpdatedAt.set(now_iso())]
    if enabled is not None:
        actions.append(Invite.Enabled.set(enabled))
    if default_role is not None:
        actions.append(Invite.DefaultRole.set(default_role))
    return _update(access.group_id, actions)


def rotate_invite(access: Access) -> Invite:
    """A fresh code; the old one stops working immediately."""
    return _update(access.group_id, [Invite.Code.set(new_invite_code()),
                                     Invite.UpdatedAt.set(now_iso())])


def _update(group_id: str, actions: list) -> Invite:
    invite = Invite(*Invite.key(group_id))
    # The update refreshes the local object (ALL_NEW), so the reply needs no second read.
    update_if(invite, actions, Invite.SK.exists(), on_fail=invite_not_found())
    return invite


def is_claimable(participant: Participant, now: str) -> bool:
    """A guest nobody holds: no live direct-invitation reservation and not mid-transfer."""
    reserved = participant.InviteExpiresAt is not None and participant.InviteExpiresAt > now
    return participant.Type == GUEST and not reserved and not participant.TransferTarget


def preview(group_id: str, code: str) -> dict:
    """What a code holder sees before asking to join; a bad code is NotFound first."""
    require_valid_code(group_id, code)
    group = load_live_group(group_id)
    roster = list(Participant.roster(group_id, consistent_read=True))
    now = now_iso()
    return {"groupId": group.GroupId, "name": group.Name, "currency": group.Currency,
            "participantCount": len(roster),
            "claimableGuests": [{"participantId": p.ParticipantId, "displayName": p.DisplayName}
                                for p in roster if is_claimable(p, now)]}
