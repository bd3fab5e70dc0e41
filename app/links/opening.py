"""Opening a link and starting a session: the token (and PIN) in, the group's face or a
session token out.

A wrong, revoked or expired token is one 404. A PIN link opened without its PIN answers only
``{pinRequired: true}``. Wrong PINs are counted on the link row in a 15-minute window; the
5th locks the link for 15 minutes (429 LINK_LOCKED + Retry-After), the right PIN included,
so 4-8 digits cannot be walked. Both calls spend the link's and the address's windows first
(app.links.limits), so even a wrong token costs its sender."""
from __future__ import annotations

import time
from typing import Callable, List, Optional

from app.core.access import UNREADABLE
from app.core.clock import new_id, now_iso
from app.core import changelog, request_reads
from app.core.conditional import update_if
from app.core.transactions import Transaction
from app.errors import Forbidden
from app.groups.membership import GUEST, change_counts
from app.links import secrets, sessions
from app.links.errors import bad_participant, link_locked, link_not_found, pin_invalid
from models.groups import Group, GroupItem, Participant, ShareLink

PIN_WINDOW_SECONDS = 900
PIN_ATTEMPTS = 5
LOCK_SECONDS = 900


def _link(token: str) -> ShareLink:
    """The live link ``token`` opens, or 404 (never saying which part was wrong)."""
    parsed = secrets.parse(token)
    if parsed is None:
        raise link_not_found()
    raw = GroupItem.raw_get(parsed.group_id, ShareLink.sort_key(parsed.link_id))
    link = ShareLink.from_raw(raw)
    if link is None or not secrets.matches(parsed, link.SecretHash):
        raise link_not_found()
    if link.ValidUntil and link.ValidUntil <= now_iso():
        raise link_not_found()
    return link


def _check_pin(link: ShareLink, pin: Optional[str], now: float) -> bool:
    """True when the link needs no PIN or ``pin`` is right; False when none was given;
    429 while locked; 401 (counted) when wrong."""
    if link.LockedUntil and link.LockedUntil > now:
        raise link_locked(max(1, min(LOCK_SECONDS, int(link.LockedUntil - now + 0.999))))
    if not link.PinHash:
        return True
    if pin is None:
        return False
    if secrets.pin_matches(pin, link.PinSalt, link.PinHash):
        return True
    _count_wrong_pin(link, int(now))
    raise pin_invalid()


def _count_wrong_pin(link: ShareLink, now: int) -> None:
    """One wrong PIN in the link's window (a new window when the last one is over); the
    PIN_ATTEMPTS-th locks the link. Each step conditions on the window it read, so
    concurrent guesses each count (a lost race re-reads and counts again)."""
    for _ in range(5):
        row = ShareLink(link.GroupId, link.SK)
        start = int(link.PinWindowStart) if link.PinWindowStart is not None else None
        if start is None or start <= now - PIN_WINDOW_SECONDS:
            failures = 1
            actions = [ShareLink.PinWindowStart.set(now), ShareLink.PinFailures.set(1)]
        else:
            failures = int(link.PinFailures or 0) + 1
            actions = [ShareLink.PinFailures.add(1)]
        if failures >= PIN_ATTEMPTS:
            actions.append(ShareLink.LockedUntil.set(now + LOCK_SECONDS))
        unchanged = (ShareLink.PinWindowStart.does_not_exist() if start is None
                     else ShareLink.PinWindowStart == start)
        condition = ShareLink.SK.exists() & unchanged & (
            ShareLink.PinFailures.does_not_exist()
            | (ShareLink.PinFailures == int(link.PinFailures or 0)))
        if update_if(row, actions, condition):
            return
        fresh = ShareLink.from_raw(GroupItem.raw_get(link.GroupId, link.SK))
        if fresh is None:
            return
        link = fresh


def _live_head(group_id: str) -> Group:
    head = Group.from_raw(GroupItem.raw_get(*Group.key(group_id)))
    if head is None or head.Status in UNREADABLE:
        raise link_not_found()
    return head


def _claimable(guest: Participant, moment: str) -> bool:
    return (guest.Type == GUEST and not guest.TransferTarget
            and not (guest.InviteExpiresAt and guest.InviteExpiresAt > moment))


def _guests(link: ShareLink) -> List[Participant]:
    """The unclaimed guests the link may act as (its bound guest only, if bound)."""
    moment = now_iso()
    return [p for p in Participant.roster(link.GroupId, consistent_read=True)
            if _claimable(p, moment)
            and (not link.ParticipantId or p.ParticipantId == link.ParticipantId)]


def open_link(token: str, pin: Optional[str], *, spend: Callable[[str], None]) -> dict:
    """``POST /links/open``: what the link shows before a session is started."""
    link = _link(token)
    spend(link.LinkId)
    if not _check_pin(link, pin, time.time()):
        return {"pinRequired": True}
    head = _live_head(link.GroupId)
    return {"groupId": link.GroupId, "name": head.Name, "currency": head.Currency,
            "role": link.Role, "pinRequired": bool(link.PinHash),
            "participantId": link.ParticipantId,
            "guests": [{"participantId": g.ParticipantId, "displayName": g.DisplayName}
                       for g in _guests(link)]}


def start_session(token: str, pin: Optional[str], *, participant_id: Optional[str],
                  display_name: Optional[str], spend: Callable[[str], None]) -> dict:
    """``POST /links/session``: a 1-hour session acting as one unclaimed guest, or (a MEMBER
    link, ``display_name``) as a guest it adds under the group's name rules and cap."""
    link = _link(token)
    spend(link.LinkId)
    if not _check_pin(link, pin, time.time()):
        raise pin_invalid()
    head = _live_head(link.GroupId)
    if display_name is not None:
        if link.Role != "MEMBER" or link.ParticipantId:
            raise Forbidden("Only an unbound MEMBER link may add a guest.")
        guest_id = _add_guest(head, link, display_name)
    else:
        guest_id = participant_id or link.ParticipantId
        if guest_id is None:
            raise bad_participant("Choose a guest (participantId) or give a displayName.")
        if link.ParticipantId and guest_id != link.ParticipantId:
            raise bad_participant("This link acts only for its own guest.")
        if guest_id not in {g.ParticipantId for g in _guests(link)}:
            raise bad_participant("Not an unclaimed guest of this group.")
        _log_session(head, link, guest_id)
    access_token, expires = sessions.sign(link.GroupId, link.LinkId, guest_id)
    return {"accessToken": access_token,
            "expiresAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(expires)),
            "groupId": link.GroupId, "participantId": guest_id, "role": link.Role}


def _add_guest(head: Group, link: ShareLink, display_name: str) -> str:
    """The new guest, counted against the cap (409 GROUP_FULL), while the link stands."""
    guest_id, now = new_id(), now_iso()
    guest = Participant(head.GroupId, Participant.sort_key(guest_id), ParticipantId=guest_id,
                        Type=GUEST, DisplayName=display_name, Role="MEMBER", CreatedAt=now,
                        UpdatedAt=now)
    tx = Transaction()
    change_counts(tx, head, participants=1)
    tx.check(ShareLink, link.GroupId, link.SK, condition=ShareLink.Role == "MEMBER",
             on_fail=link_not_found())
    tx.put(guest, condition=Participant.SK.does_not_exist())
    request_reads.remember_link_guest(guest_id)
    changelog.record(tx, head, guest, changelog.CREATE, actor=guest_id)
    _record_session(tx, head, link, guest_id)
    tx.commit()
    return guest_id


def _log_session(head: Group, link: ShareLink, guest_id: str) -> None:
    """The activity item of a session opened as an existing guest, committed only while
    the link stands and the guest is still a guest (a claim racing it wins or loses whole)."""
    tx = Transaction()
    tx.check(ShareLink, link.GroupId, link.SK, condition=ShareLink.SK.exists(),
             on_fail=link_not_found())
    tx.check(Participant, link.GroupId, Participant.sort_key(guest_id),
             condition=Participant.Type == GUEST,
             on_fail=bad_participant("Not an unclaimed guest of this group."))
    request_reads.remember_link_guest(guest_id)
    _record_session(tx, head, link, guest_id)
    tx.commit()


def _record_session(tx: Transaction, head: Group, link: ShareLink, guest_id: str) -> None:
    """Every session opened is an activity item of kind LINK naming its guest ("Bo (by link)
    opened the group"); its subject is the guest alone, so nothing of the link row is kept."""
    changelog.record(tx, head, ShareLink(link.GroupId, link.SK), changelog.CREATE,
                     actor=guest_id, subject={"participantId": guest_id})
