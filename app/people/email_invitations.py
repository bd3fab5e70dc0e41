"""Invitations by e-mail: an OWNER invites an address (api.md "E-mail and language"). The
invitee gets an e-mail carrying a share link bound to a guest reserved for them: the named
unreserved guest, or a new one named after the address's local part (or ``displayName``).
Opening the link, they take part as that guest, and may claim it into an account later.

One TransactWrite holds the owner, the guest (new, counted against the group's cap; or the
named one, still an unreserved guest), the link row (only its hash: app.links.links), the
group's daily counter (at most INVITATION_EMAILS_PER_GROUP_PER_DAY, conditioned, so racing
invitations can't pass it) and the outbox event the notification worker sends the e-mail
from, off the request path. The event holds the address and the link's token sealed
(app.core.sealing), and the worker deletes it once sent.

Whether the address belongs to an account is never looked up: every address is invited the
same way (same reply, same writes, same e-mail), so the route can't tell anyone who has an
account. An address that unsubscribed from invitations is invited all the same and answered
the same; the worker finds its suppression and sends nothing
(app.notifications.invitation_mail)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Optional

from app.core import changelog, outbox
from app.core.access import Access
from app.core.clock import epoch, iso_in, new_id, now_iso, today
from app.core.sealing import INVITATION_MAIL, seal
from app.core.transactions import Transaction
from app.errors import Invalid, NotFound
from app.groups.membership import GUEST, change_counts, require_live_group, \
    require_still_owner
from app.limits import INVITATION_EMAILS_PER_GROUP_PER_DAY, MAX_DISPLAY_NAME
from app.links import links
from app.people.errors import guest_unavailable, invitation_emails_limit
# As a direct invitation's: the same roles, the same 14 days, the same unreserved guest.
from app.people.invitations import INVITE_ROLES, INVITE_TTL_SECONDS, reservable, reservable_guest
from models.groups import Participant
from models.notifications import EMAIL_INVITATION
from models.rate_limits import INVITATION_MAIL_SUBJECT, RateCounter
from models.users import Profile

_COUNTER_KEEP_SECONDS = 2 * 24 * 3600


def normalise(address: str) -> str:
    """The one spelling an address is known by (suppression keys, the reply): trimmed,
    lowercase. Mail servers treat the domain, and in practice the local part, without case."""
    return address.strip().lower()


def _seconds_to_tomorrow() -> int:
    moment = datetime.now(timezone.utc)
    tomorrow = (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    return max(1, int((tomorrow - moment).total_seconds()))


def _count(tx: Transaction, group_id: str) -> None:
    """Today's invitations of the group, one more only while under the limit."""
    row = RateCounter(RateCounter.key(RateCounter.subject(INVITATION_MAIL_SUBJECT, group_id),
                                      today()))
    limit = INVITATION_EMAILS_PER_GROUP_PER_DAY
    tx.update(row, [RateCounter.Count.add(1), RateCounter.EntityType.set(RateCounter),
                    RateCounter.ExpiresAt.set(epoch() + _COUNTER_KEEP_SECONDS)],
              condition=RateCounter.Count.does_not_exist() | (RateCounter.Count < limit),
              on_fail=invitation_emails_limit(limit, _seconds_to_tomorrow()))


def _inviter(user_id: str) -> Profile:
    try:
        return Profile.get(*Profile.key(user_id), consistent_read=True)
    except Profile.DoesNotExist:
        raise NotFound("Account not found.") from None


def _guest_name(address: str, display_name: Optional[str]) -> str:
    return display_name or address.split("@", 1)[0][:MAX_DISPLAY_NAME] or address


def invite_by_email(access: Access, address: str, *, role: str,
                    participant_id: Optional[str] = None,
                    display_name: Optional[str] = None) -> dict:
    """Invite ``address`` (OWNER); the reply is the same whoever the address belongs to."""
    if role not in INVITE_ROLES:
        raise Invalid("An invitation grants MEMBER or VIEWER.",
                      details={"role": ["Must be MEMBER or VIEWER."]})
    address, group_id, now = normalise(address), access.group_id, now_iso()
    inviter = _inviter(access.user_id)
    valid_until = iso_in(INVITE_TTL_SECONDS)
    tx = Transaction()
    require_still_owner(tx, access)
    if participant_id is not None:
        guest = reservable_guest(group_id, participant_id, now)
        require_live_group(tx, group_id)
        tx.check(Participant, group_id, guest.SK,
                 condition=Participant.SK.exists() & reservable(now),
                 on_fail=guest_unavailable())
    else:
        # A participant like any other: it counts against the group's cap (409 GROUP_FULL)
        # in the head update that proves the group live.
        change_counts(tx, access.group, participants=1)
        participant_id = new_id()
        guest = Participant(group_id, Participant.sort_key(participant_id),
                            ParticipantId=participant_id, Type=GUEST,
                            DisplayName=_guest_name(address, display_name), Role=role,
                            CreatedAt=now, UpdatedAt=now)
        tx.put(guest, condition=Participant.SK.does_not_exist())
        changelog.record(tx, access.group, guest, changelog.CREATE, actor=access.participant_id)
    token, link = links.add_invitation_link(tx, access, role=role,
                                            participant_id=participant_id,
                                            valid_until=valid_until)
    _count(tx, group_id)
    outbox.add_event(tx, EMAIL_INVITATION, scope_id=group_id, resource_id=link.LinkId,
                     actor_user_id=access.user_id, group_id=group_id,
                     payload={"linkId": link.LinkId, "participantId": participant_id,
                              "role": role, "locale": inviter.Locale or "",
                              "inviterName": inviter.DisplayName,
                              "groupName": access.group.Name, "validUntil": valid_until,
                              "sealed": seal({"to": address, "token": token},
                                             INVITATION_MAIL)})
    tx.commit()
    return {"GroupId": group_id, "GroupName": access.group.Name, "Email": address,
            "Role": role, "ParticipantId": participant_id, "LinkId": link.LinkId,
            "InvitedBy": access.user_id, "CreatedAt": link.CreatedAt, "ExpiresAt": valid_until}
