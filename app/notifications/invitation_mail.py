"""An invitation by e-mail (an EMAIL_INVITATION outbox event, app.people.email_invitations)
sent as one message: in the inviter's language, a plain-text and an HTML part (Jinja2,
autoescaped: the group's and the inviter's names are someone's free text), the share link
(``<origin>/app/join#<token>``: the token after ``#`` never reaches a server log), and a
one-click unsubscribe that stops every further invitation to the address.

The event carries the address and the token sealed (app.core.sealing); nothing is sent to an
address that unsubscribed, nor for a link revoked before the worker got to it. Like every
e-mail, a failed send is logged and counted and never fails the event."""
from __future__ import annotations

from typing import Optional
from urllib.parse import quote

from jinja2 import Environment

from app.core.i18n import texts
from app.core.sealing import INVITATION_MAIL, unseal
from app.logs import logger
from app.notifications import mail, suppression
from app.notifications.unsubscribe import address_unsubscribe_token
from models.groups import GroupItem, ShareLink
from models.notifications import Event

_HTML = Environment(autoescape=True).from_string(
    "<!doctype html>\n"
    '<html lang="{{ lang }}"><head><meta charset="utf-8"><title>{{ title }}</title></head>\n'
    '<body style="font-family: sans-serif">\n'
    "<h1>{{ title }}</h1>\n"
    "<p>{{ body }}</p>\n"
    '<p><a href="{{ join_url }}">{{ join_label }}</a></p>\n'
    "<p>{{ note }}</p>\n"
    '<p style="font-size: small"><a href="{{ unsubscribe_url }}">{{ unsubscribe_label }}</a></p>\n'
    "</body></html>\n")


def compose(*, to: str, token: str, inviter: str, group: str, valid_until: str,
            locale: Optional[str]) -> mail.Mail:
    t = texts(locale)
    origin = mail.link_origin()
    join_url = f"{origin}/app/join#{token}"
    unsubscribe_url = (f"{origin}/unsubscribe?token=" + quote(address_unsubscribe_token(
        suppression.address_hash(to), suppression.INVITATIONS)))
    title = t.gettext("{inviter} invited you to {group}", inviter=inviter, group=group)
    body = t.gettext("{inviter} invited you to share expenses in {group} on TailSpend. Open "
                     "the link to see the group and add what you paid; you need no account.",
                     inviter=inviter, group=group)
    join_label = t.gettext("Join {group}", group=group)
    note = t.gettext("This link is for you alone; it works until {date}.",
                     date=t.date(valid_until))
    unsubscribe_label = t.gettext("Send me no more invitations")
    text = (f"{title}\n\n{body}\n\n{join_label}: {join_url}\n\n{note}\n\n"
            f"{unsubscribe_label}: {unsubscribe_url}\n")
    html = _HTML.render(lang=t.tag, title=title, body=body, join_url=join_url,
                        join_label=join_label, note=note, unsubscribe_url=unsubscribe_url,
                        unsubscribe_label=unsubscribe_label)
    return mail.Mail(to, title, text, html, unsubscribe_url)


def _link_stands(group_id: Optional[str], link_id: Optional[str]) -> bool:
    if not group_id or not link_id:
        return False
    return GroupItem.raw_get(group_id, ShareLink.sort_key(link_id)) is not None


def deliver(event: Event) -> dict:
    """Send the invitation once (the caller then takes the event out of the outbox);
    returns the counts the dispatch log line carries."""
    payload = event.Payload.as_dict() if event.Payload is not None else {}
    try:
        secret = unseal(str(payload.get("sealed") or ""), INVITATION_MAIL)
    except ValueError:  # not ours, or sealed under a key since replaced: nothing to send
        logger.warning("invitation_mail.unreadable", extra={"event_id": event.EventId})
        return {"unreadable": 1}
    if suppression.suppressed(suppression.address_hash(secret["to"])):
        return {"suppressed": 1}
    if not _link_stands(event.GroupId, payload.get("linkId")):
        return {"revoked": 1}
    if not mail.enabled():
        return {"no_transport": 1}
    message = compose(to=secret["to"], token=secret["token"],
                      inviter=str(payload.get("inviterName") or ""),
                      group=str(payload.get("groupName") or ""),
                      valid_until=str(payload.get("validUntil")),
                      locale=payload.get("locale") or None)
    return {"emailed": 1} if mail.send(message) else {"email_failed": 1}
