"""Fan one outbox EVENT out: recipients, preferences, history rows, push, then dispatched.

Exactly-once history without a lock: each recipient's row has a key derived from the event
(``NOTIF#<createdAt>#<eventId>``) and is created under attribute_not_exists, so a replay, a
redelivered stream batch or the maintenance sweep racing the stream worker all find the row
there and write nothing. Push follows the row: only the attempt that created a row pushes for
it, so nothing is pushed twice (a crash between the two loses that push, never the row). An
event's pushes go out together after its rows are written (see push.send_all)."""
from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Dict, Iterable, List, Optional, Tuple


from app.errors import DomainError
from app.auth.principal import link_of_user_id
from app.logs import logger
from app.notifications import invitation_mail, mail, push
from app.notifications.devices import remove_device
from app.notifications.ids import notification_id
from app.notifications.render import Context, render
from app.core.conditional import delete_if, put_if, update_if
from models.groups import META, PARTICIPANT_PREFIX, Group, GroupItem, GroupStatus, Participant
from models.notifications import (MAIL_EVENT_TYPES, Device, Event, Notification,
                                  NotificationItem, Preferences)
from models.users import Profile

HISTORY_SECONDS = 90 * 24 * 3600
USER = "USER"
DELETING = GroupStatus.DELETING
# GroupData sort keys: nothing sorts between the head ("META") and the participants
# ("PARTICIPANT#..."), so one range query returns the head and the whole roster.
_ROSTER_END = PARTICIPANT_PREFIX[:-1] + "$"


def _epoch(iso: str) -> int:
    moment = datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    return int(moment.timestamp())


def _group_context(group_id: str) -> tuple:
    """(Context, the group's USER participants' user ids) from one Query; empty if gone."""
    ctx, users = Context(), []
    for row in GroupItem.query(group_id, GroupItem.SK.between(META, _ROSTER_END),
                               consistent_read=True):
        if isinstance(row, Group):
            if row.Status == DELETING:
                return Context(), []
            ctx.group_name, ctx.currency = row.Name, row.Currency
        elif isinstance(row, Participant):
            ctx.participant_names[row.ParticipantId] = row.DisplayName
            if row.Type == USER and row.UserId:
                ctx.user_names[row.UserId] = row.DisplayName
                users.append(row.UserId)
    if ctx.group_name is None:  # no head: the group is gone
        return Context(), []
    return ctx, users


def _actor_name(user_id: str) -> Optional[str]:
    """The actor's profile name, for events outside a group or by a non-participant."""
    try:
        return Profile.get(*Profile.key(user_id)).DisplayName
    except Profile.DoesNotExist:
        return None


def _preferences(user_ids: Iterable[str]) -> Dict[str, Preferences]:
    owners = {Preferences.key(user_id): user_id for user_id in user_ids}
    found = NotificationItem.raw_batch_get(list(owners))
    return {owners[key]: NotificationItem.from_raw_data(raw) for key, raw in found.items()}


def wants(prefs: Optional[Preferences], event_type: str, group_id: Optional[str]) -> bool:
    """False when the recipient muted the group or switched every channel of the type off."""
    if prefs is None:
        return True
    if group_id and group_id in (prefs.MutedGroupIds or set()):
        return False
    return _wants_push(prefs, event_type) or event_type in (prefs.EmailOn or ())


def _wants_push(prefs: Optional[Preferences], event_type: str) -> bool:
    types = prefs.Types.as_dict() if prefs is not None and prefs.Types is not None else {}
    return types.get(event_type, True) is not False


def live_recipients(user_ids: List[str]) -> Dict[str, Optional[str]]:
    """The recipients whose account is live, each with the locale their texts are written in,
    from one strongly consistent BatchGetItem of their profiles (100 a call): a profile absent
    or marked DELETING gets no history row.

    Read, not held by a ConditionCheck per row: a row whose put races the deletion mark
    (the profile read live just before it) lands in the partition the deletion sweeps, and
    its notifications step and late sweep read that partition again when they run, so the
    row is removed with the rest (tests/account/test_deletion_late_rows.py)."""
    return {user_id: profile.Locale for user_id, profile in live_profiles(user_ids).items()}


def live_profiles(user_ids: List[str]) -> Dict[str, Profile]:
    """live_recipients' read, whole: the locale, and the address an e-mail goes to."""
    if not user_ids:
        return {}
    found = Profile.batch_get([Profile.key(user_id) for user_id in user_ids],
                              consistent_read=True)
    return {profile.UserId: profile for profile in found if not profile.deleting}


def wants_email(prefs: Optional[Preferences], event_type: str, profile: Profile) -> bool:
    """The e-mail channel: switched on for the type (off by default), to a verified address."""
    return bool(prefs is not None and event_type in (prefs.EmailOn or ())
                and profile.Email and profile.EmailVerified)


def _email(event: Event, mails: List[Tuple[str, mail.Mail, bool]], counts: dict) -> List[str]:
    """Send one event's e-mails after its rows are written (like its pushes), one by one until
    the deadline they share with the invocation (mail.send_deadline); the recipients left are
    returned, for the outbox to retry. A recipient left by an earlier attempt (``pending``)
    is first taken out of the event's MailPending set by a conditional write, so two
    dispatchers of the same event never both send it."""
    deadline = mail.send_deadline() if mails else 0.0
    left: List[str] = []
    for user_id, one, pending in mails:
        if left or time.monotonic() >= deadline:
            left.append(user_id)
            continue
        if pending and not update_if(Event(event.PK, event.SK),
                                     [Event.MailPending.delete({user_id})],
                                     Event.MailPending.contains(user_id)):
            continue  # another dispatcher of this event took it
        outcome = "emailed" if mail.send(one) else "email_failed"
        counts[outcome] = counts.get(outcome, 0) + 1
    if left:
        counts["email_deferred"] = len(left)
    return left


def _defer_mail(event: Event, user_ids: List[str]) -> None:
    """Keep the event in the outbox with the recipients whose e-mail is still to go: the
    outbox sweep dispatches it again (their history rows exist, so nothing else repeats)."""
    update_if(Event(event.PK, event.SK), [Event.MailPending.add(set(user_ids))],
              Event.PK.exists())


def _write_history(user_id: str, event: Event, title: str, body: str) -> bool:
    """Create the recipient's row (one conditional PutItem); False when an earlier attempt
    already did."""
    row = Notification(*Notification.key(user_id, event.CreatedAt, event.EventId),
                       NotificationId=notification_id(event.CreatedAt, event.EventId),
                       Type=event.Type, Title=title, Body=body, GroupId=event.GroupId,
                       ResourceId=event.ResourceId, CreatedAt=event.CreatedAt,
                       EventId=event.EventId,
                       ExpiresAt=_epoch(event.CreatedAt) + HISTORY_SECONDS)
    return put_if(row, Notification.PK.does_not_exist())


def _deliveries(user_id: str, message: push.Message) -> List[push.Delivery]:
    return [push.Delivery(user_id, device, device.Platform, device.Token, message)
            for device in Device.of_user(user_id)]


def _push(deliveries: List[push.Delivery], counts: dict) -> None:
    """Send one event's pushes together (bounded, with one deadline); drop dead devices.

    Nothing here fails the event: its history rows are written, and a push is a side channel
    (a provider that cannot even be built, e.g. an unreadable VAPID key, loses these pushes,
    logged, rather than the record failing forever)."""
    if not deliveries:
        return
    try:
        provider = push.provider()
    except Exception:  # noqa: BLE001 - see the docstring
        logger.exception("push.provider_unavailable")
        counts["failed"] = counts.get("failed", 0) + len(deliveries)
        return
    for delivery, outcome in zip(deliveries, push.send_all(provider, deliveries), strict=True):
        counts[outcome.lower()] = counts.get(outcome.lower(), 0) + 1
        if outcome == push.GONE:
            try:
                remove_device(delivery.user_id, delivery.device)
            except DomainError:  # re-registered meanwhile: the new registration stands
                logger.info("push.device_reregistered")


def _mark_dispatched(event: Event) -> None:
    """Take the event out of the outbox: delete its row (gone already: another attempt did),
    unless an attempt left e-mails to send meanwhile (MailPending: the sweep's then).
    By the row's own key, as the stream record or the sweep's Query carried it."""
    delete_if(Event(event.PK, event.SK), Event.MailPending.does_not_exist())


def already_dispatched(event: Event) -> bool:
    """True when the row is gone: dispatch deletes it (or TTL took a row never dispatched)."""
    return NotificationItem.raw_get(event.PK, event.SK) is None


def recipients_of(event: Event, group_users: List[str]) -> List[str]:
    named = sorted(event.Recipients or ())
    chosen = named if named else group_users
    return [user_id for user_id in dict.fromkeys(chosen) if user_id != event.ActorUserId]


def _rendered(event: Event, payload: dict, ctx: Context, locale: Optional[str],
              cache: Dict[Optional[str], tuple]) -> tuple:
    if locale not in cache:
        cache[locale] = render(event.Type, event.ActorUserId, payload, ctx, locale)
    return cache[locale]


def dispatch(event: Event) -> dict:
    """Deliver one event to everyone it concerns, then take it out of the outbox."""
    if event.Type in MAIL_EVENT_TYPES:  # to an address, not to users: one e-mail
        counts = invitation_mail.deliver(event)
        _mark_dispatched(event)
        logger.info("notification.dispatched", extra={"event_id": event.EventId, **counts})
        return counts
    ctx, group_users = _group_context(event.GroupId) if event.GroupId else (Context(), [])
    # a share-link session has no profile: render names its guest from the roster
    if event.ActorUserId not in ctx.user_names and link_of_user_id(event.ActorUserId) is None:
        name = _actor_name(event.ActorUserId)
        if name:
            ctx.user_names[event.ActorUserId] = name
    recipients = recipients_of(event, group_users)
    prefs = _preferences(recipients) if recipients else {}
    live = live_profiles([user_id for user_id in recipients
                          if wants(prefs.get(user_id), event.Type, event.GroupId)])
    payload = event.Payload.as_dict() if event.Payload is not None else {}
    counts = {"recipients": 0, "written": 0}
    deliveries: List[push.Delivery] = []
    mails: List[Tuple[str, mail.Mail, bool]] = []
    emailing = mail.enabled()
    pending = set(event.MailPending or ())  # e-mails an earlier attempt had no time for
    rendered: Dict[Optional[str], tuple] = {}
    for user_id in recipients:
        if not wants(prefs.get(user_id), event.Type, event.GroupId):
            continue
        counts["recipients"] += 1
        if user_id not in live:  # gone or being deleted: nothing lands in a swept partition
            continue
        # each recipient reads it in their own language (rendered once per locale)
        profile = live[user_id]
        title, body = _rendered(event, payload, ctx, profile.Locale, rendered)
        created = _write_history(user_id, event, title, body)
        if created:
            counts["written"] += 1
            message = push.Message(title, body, event.Type, event.GroupId, event.ResourceId,
                                   notification_id(event.CreatedAt, event.EventId))
            if _wants_push(prefs.get(user_id), event.Type):
                deliveries.extend(_deliveries(user_id, message))
        if (created or user_id in pending) and emailing and \
                wants_email(prefs.get(user_id), event.Type, profile):
            mails.append((user_id, mail.compose(to=profile.Email, user_id=user_id,
                                                event_type=event.Type, title=title, body=body,
                                                locale=profile.Locale), not created))
    _push(deliveries, counts)
    dropped = pending - {user_id for user_id, _one, again in mails if again}
    if dropped:  # no longer wanted, or gone: nothing left to send them
        update_if(Event(event.PK, event.SK), [Event.MailPending.delete(dropped)],
                  Event.PK.exists())
    left = _email(event, mails, counts)
    if left:
        _defer_mail(event, left)
    else:
        _mark_dispatched(event)
    logger.info("notification.dispatched", extra={"event_id": event.EventId, **counts})
    return counts
