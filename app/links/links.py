"""An owner's share links: create (the token shown once), list (no secrets), revoke.

At most :data:`MAX_LINKS` live links per group: the group's LinkCount row goes up by one in
the create's transaction only while below the cap, so racing creates can never pass it.
Expired links are not live; a create that finds the count full recounts it from the rows
(releasing expired ones) and tries once more, as PATs do (app.developer.tokens).

A link made by an invitation by e-mail (:func:`add_invitation_link`, ``ByEmail``) is bound to
its guest, expires with the invitation and holds no slot: those invitations have a daily
limit of their own (app.people.email_invitations)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import List, Optional

from app.core.access import Access
from app.core.clock import new_id, now_iso
from app.core.conditional import put_if, update_if
from app.core.transactions import Transaction
from app.errors import Conflict, Invalid, NotFound, target_not_guest
from app.groups.membership import GUEST, require_live_group, require_still_owner
from app.links import secrets
from app.links.errors import link_limit
from models.groups import LinkCount, Participant, ShareLink

MAX_LINKS = 20
MAX_VALIDITY = timedelta(days=366)  # "at most a year ahead", leap years included
LINK_ROLES = ("VIEWER", "MEMBER")


class _Full(Conflict):
    """The count is at the cap (maybe only with expired links: recount, retry)."""


def view(link: ShareLink) -> dict:
    """The public shape of a link row: never its secret, its hash or its PIN's."""
    return {"linkId": link.LinkId, "role": link.Role, "participantId": link.ParticipantId,
            "label": link.Label, "pinRequired": bool(link.PinHash),
            "expiresAt": link.ValidUntil, "createdAt": link.CreatedAt,
            "byEmail": True if link.ByEmail else None}


def _valid_until(expires_at: Optional[datetime]) -> Optional[str]:
    if expires_at is None:
        return None
    moment = expires_at if expires_at.tzinfo else expires_at.replace(tzinfo=timezone.utc)
    now = datetime.now(timezone.utc)
    if moment <= now or moment > now + MAX_VALIDITY:
        raise Invalid("expiresAt must be in the future and at most a year ahead.",
                      details={"expiresAt": ["A future time at most one year ahead."]})
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def create_link(access: Access, *, role: str, participant_id: Optional[str] = None,
                pin: Optional[str] = None, expires_at: Optional[datetime] = None,
                label: Optional[str] = None) -> dict:
    """A new link; the reply is the only place its token ever appears."""
    if role not in LINK_ROLES:
        raise Invalid("A link acts as VIEWER or MEMBER.", details={"role": ["VIEWER or MEMBER."]})
    valid_until = _valid_until(expires_at)
    if participant_id is not None:
        try:
            guest = Participant.get(access.group_id, Participant.sort_key(participant_id),
                                    consistent_read=True)
        except (Participant.DoesNotExist, ValueError):
            raise Invalid("No such participant in this group.",
                          details={"participantId": ["Not a participant of this group."]}) from None
        if guest.Type != GUEST:
            raise target_not_guest()
    link_id, now = new_id(), now_iso()
    token, secret_hash = secrets.mint(access.group_id, link_id)
    salt, pin_hash = secrets.hash_pin(pin) if pin else (None, None)
    row = ShareLink(access.group_id, ShareLink.sort_key(link_id), LinkId=link_id, Role=role,
                    SecretHash=secret_hash, ParticipantId=participant_id, PinHash=pin_hash,
                    PinSalt=salt, ValidUntil=valid_until, Label=label,
                    CreatedBy=access.participant_id, CreatedAt=now, UpdatedAt=now)
    for attempt in (1, 2):
        try:
            _commit_create(access, row)
            break
        except _Full:
            if attempt == 2 or not _recount(access.group_id):
                raise link_limit(MAX_LINKS) from None
    return {**view(row), "token": token}


def add_invitation_link(tx: Transaction, access: Access, *, role: str, participant_id: str,
                        valid_until: str) -> tuple:
    """(the token, the row) of an e-mail invitation's link, put in ``tx`` (the invitation's
    transaction, which holds the owner and the guest): bound to ``participant_id``, uncounted."""
    link_id, now = new_id(), now_iso()
    token, secret_hash = secrets.mint(access.group_id, link_id)
    row = ShareLink(access.group_id, ShareLink.sort_key(link_id), LinkId=link_id, Role=role,
                    SecretHash=secret_hash, ParticipantId=participant_id,
                    ValidUntil=valid_until, ByEmail=True, CreatedBy=access.participant_id,
                    CreatedAt=now, UpdatedAt=now)
    tx.put(row, condition=ShareLink.SK.does_not_exist(),
           on_fail=Invalid("Link id collision; try again."))
    return token, row


def _commit_create(access: Access, row: ShareLink) -> None:
    tx = Transaction()
    require_still_owner(tx, access)
    require_live_group(tx, access.group_id)
    if row.ParticipantId:  # still a guest when the link is made
        tx.check(Participant, access.group_id, Participant.sort_key(row.ParticipantId),
                 condition=Participant.Type == GUEST, on_fail=target_not_guest())
    # An absent count fails too: it is seeded from the group's links first.
    tx.update(LinkCount(*LinkCount.key(access.group_id)),
              [LinkCount.Live.add(1), LinkCount.EntityType.set(LinkCount)],
              condition=LinkCount.Live < MAX_LINKS, on_fail=_Full("full"))
    tx.put(row, condition=ShareLink.SK.does_not_exist(),
           on_fail=Invalid("Link id collision; try again."))
    tx.without_change("a link is access to the group, not its content").commit()


def _live(link: ShareLink, moment: str) -> bool:
    return not link.ValidUntil or link.ValidUntil > moment


def _counted(link: ShareLink, moment: str) -> bool:
    """Holds one of the group's MAX_LINKS slots: live, and not an e-mail invitation's."""
    return _live(link, moment) and not link.ByEmail


def _recount(group_id: str) -> bool:
    """Set the count to the group's live links if it is still what we read (True: worth a
    retry); seed it when absent (a group's first link)."""
    try:
        counted = int(LinkCount.get(*LinkCount.key(group_id), consistent_read=True).Live or 0)
    except LinkCount.DoesNotExist:
        counted = None
    moment = now_iso()
    live = sum(1 for link in ShareLink.of_group(group_id, consistent_read=True)
               if _counted(link, moment))
    if counted is None:  # lost to a concurrent seed: retry against that count all the same
        put_if(LinkCount(*LinkCount.key(group_id), Live=live), LinkCount.Live.does_not_exist())
        return True
    if live >= counted:
        return False
    return update_if(LinkCount(*LinkCount.key(group_id)), [LinkCount.Live.set(live)],
                     LinkCount.Live == counted)


def list_links(access: Access) -> List[dict]:
    """Live links, newest first (one consistent Query of the group's LINK rows)."""
    moment = now_iso()
    rows = [link for link in ShareLink.of_group(access.group_id, consistent_read=True)
            if _live(link, moment)]
    rows.sort(key=lambda link: (link.CreatedAt or "", link.LinkId), reverse=True)
    return [view(link) for link in rows]


def revoke_link(access: Access, link_id: str) -> None:
    """Delete the link row: every session of it is refused from the next request on
    (app.core.access.authorize_link). A link still live gives its slot back in the same
    transaction; an expired one holds none (a recount released it), nor does an e-mail
    invitation's."""
    key = (access.group_id, ShareLink.sort_key(link_id))
    try:
        link = ShareLink.get(*key, consistent_read=True)
    except (ShareLink.DoesNotExist, ValueError):
        raise NotFound("Link not found.") from None
    moment = now_iso()
    tx = Transaction()
    require_still_owner(tx, access)
    if _counted(link, moment):
        tx.update(LinkCount(*LinkCount.key(access.group_id)), [LinkCount.Live.add(-1)],
                  condition=LinkCount.Live > 0, on_fail=NotFound("Link not found."))
        tx.delete(ShareLink(*key), condition=ShareLink.SK.exists() & (
            ShareLink.ValidUntil.does_not_exist() | (ShareLink.ValidUntil > moment)),
            on_fail=NotFound("Link not found."))
    else:
        tx.delete(ShareLink(*key), condition=ShareLink.SK.exists(),
                  on_fail=NotFound("Link not found."))
    tx.without_change("a link is access to the group, not its content").commit()
