"""Title and body of a notification, rendered from its outbox event (who, what, how much) in
the recipient's language (app.core.i18n: the catalogs, Babel's money formats).

Everything needed travels in the event (payload written in the same transaction as the
change) or comes from the group read that recipient resolution makes anyway, and each
recipient's locale from the profile read that checks they are live, so rendering costs no
extra DynamoDB call. Amounts are integer minor units of the group currency."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional

from app.auth.principal import link_of_user_id
from app.core.i18n import Texts, texts


@dataclass
class Context:
    """What rendering may name: display names by user and participant id, the group."""

    group_name: Optional[str] = None
    currency: Optional[str] = None
    user_names: Mapping[str, str] = field(default_factory=dict)
    participant_names: Mapping[str, str] = field(default_factory=dict)


def _money(payload: Mapping, ctx: Context, t: Texts) -> str:
    amount = payload.get("amount")
    if amount is None or not ctx.currency:
        return ""
    return t.money(int(amount), ctx.currency)


def _what(payload: Mapping, ctx: Context, t: Texts) -> str:
    """'"Dinner" (€45.50)', or whichever part is known."""
    description = payload.get("description")
    money = _money(payload, ctx, t)
    if description and money:
        return t.gettext("\u201c{description}\u201d ({money})", description=description,
                         money=money)
    return t.gettext("\u201c{description}\u201d", description=description) if description \
        else money


def _reminder(who: str, group: str, payload: Mapping, t: Texts) -> tuple:
    """'Olive reminds you: you owe €12.30 in Trip. Pay: https://paypal.me/olive/12.30EUR'."""
    owed = [item for item in payload.get("owed") or () if item.get("currency")]
    amounts = t.join([t.money(int(item["amount"]), item["currency"]) for item in owed]) \
        or t.gettext("money")
    links = [link["url"] if link.get("url") else t.gettext("a SEPA transfer (QR in the app)")
             for item in owed for link in item.get("payTo") or ()]
    body = t.gettext("{who} reminds you: you owe {amounts} in {group}.", who=who,
                     amounts=amounts, group=group)
    if links:
        body += " " + t.gettext("Pay: {links}", links=", ".join(links))
    return t.gettext("Payment reminder from {who}", who=who), body


def _who(actor_user_id: str, ctx: Context, t: Texts) -> str:
    """The actor as the group knows them. A share-link session's writes carry its stand-in
    id (``link:<linkId>:<participantId>``, no account): its guest's name, marked as the
    activity marks it, "Bo (by link)"."""
    link = link_of_user_id(actor_user_id)
    if link is not None:
        name = ctx.participant_names.get(link[1])
        return t.gettext("{name} (by link)", name=name) if name else t.gettext("Someone")
    return ctx.user_names.get(actor_user_id) or t.gettext("Someone")


def _expense(event_type: str, who: str, group: str, what: str, t: Texts) -> tuple:
    if event_type == "EXPENSE_ADDED":
        return (t.gettext("New expense in {group}", group=group),
                t.gettext("{who} added {what}.", who=who, what=what) if what
                else t.gettext("{who} added an expense.", who=who))
    if event_type == "EXPENSE_UPDATED":
        return (t.gettext("Expense changed in {group}", group=group),
                t.gettext("{who} updated {what}.", who=who, what=what) if what
                else t.gettext("{who} updated an expense.", who=who))
    return (t.gettext("Expense deleted in {group}", group=group),
            t.gettext("{who} deleted {what}.", who=who, what=what) if what
            else t.gettext("{who} deleted an expense.", who=who))


def _recurring(event_type: str, who: str, group: str, what: str, t: Texts) -> tuple:
    if event_type == "RECURRING_CREATED":
        return (t.gettext("Recurring expense in {group}", group=group),
                t.gettext("{who} set up {what}.", who=who, what=what) if what
                else t.gettext("{who} set up a recurring expense.", who=who))
    return (t.gettext("Upcoming expense in {group}", group=group),
            t.gettext("Recurring {what} is due soon.", what=what) if what
            else t.gettext("A recurring expense is due soon."))


def render(event_type: str, actor_user_id: str, payload: Optional[Mapping],
           ctx: Context, locale: Optional[str] = None) -> tuple:
    """(title, body) for one event in ``locale`` (the recipient's; None: the default);
    unknown types get a neutral text, never an error."""
    t = texts(locale)
    payload = payload or {}
    who = _who(actor_user_id, ctx, t)
    group = ctx.group_name or t.gettext("your group")
    what = _what(payload, ctx, t)
    if event_type == "EXPENSE_ADDED" and int(payload.get("occurrences") or 1) > 1:
        # One recurring template's catch-up, summed up in one event (recurring.occurrences).
        return (t.gettext("New expenses in {group}", group=group),
                t.ngettext("Recurring {what} was recorded {count} time, for {first} to {last}.",
                           "Recurring {what} was recorded {count} times, for {first} to {last}.",
                           int(payload["occurrences"]), what=what or t.gettext("expense"),
                           first=t.date(payload.get("firstSlot")),
                           last=t.date(payload.get("slot"))))
    if event_type.startswith("EXPENSE_"):  # added, updated, deleted
        return _expense(event_type, who, group, what, t)
    if event_type == "COMMENT_ADDED":
        return (t.gettext("New comment in {group}", group=group),
                t.gettext("{who} commented on an expense.", who=who))
    if event_type == "MENTION":
        return (t.gettext("{who} mentioned you", who=who),
                t.gettext("{who} mentioned you in a comment in {group}.", who=who, group=group))
    if event_type == "SETTLEMENT_ADDED":
        payer = ctx.participant_names.get(payload.get("payerId", "")) or t.gettext("Someone")
        payee = ctx.participant_names.get(payload.get("payeeId", "")) or t.gettext("Someone")
        money = _money(payload, ctx, t) or t.gettext("a payment")
        return (t.gettext("Payment recorded in {group}", group=group),
                t.gettext("{who} recorded {payer} paying {payee} {money}.", who=who,
                          payer=payer, payee=payee, money=money))
    if event_type == "JOIN_REQUEST_SUBMITTED":
        return (t.gettext("Join request for {group}", group=group),
                t.gettext("{who} asked to join {group}.", who=who, group=group))
    if event_type == "JOIN_REQUEST_DECIDED":
        if str(payload.get("status", "")).upper() == "APPROVED":
            return (t.gettext("Join request approved"),
                    t.gettext("Your request to join {group} was approved.", group=group))
        return (t.gettext("Join request denied"),
                t.gettext("Your request to join {group} was denied.", group=group))
    if event_type == "GROUP_INVITATION":
        return (t.gettext("Invitation to {group}", group=group),
                t.gettext("{who} invited you to join {group}.", who=who, group=group))
    if event_type == "FRIEND_REQUEST":
        return (t.gettext("New friend request"),
                t.gettext("{who} wants to be your friend.", who=who))
    if event_type == "FRIEND_ACCEPTED":
        return (t.gettext("Friend request accepted"),
                t.gettext("{who} accepted your friend request.", who=who))
    if event_type.startswith("RECURRING_"):  # created, reminder
        return _recurring(event_type, who, group, what, t)
    if event_type == "REMINDER":
        return _reminder(who, group, payload, t)
    return "TailSpend", t.gettext("Something changed in {group}.", group=group)
