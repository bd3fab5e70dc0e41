"""Title and body of a notification, rendered from its outbox event (who, what, how much).

Everything needed travels in the event (payload written in the same transaction as the
change) or comes from the group read that recipient resolution makes anyway, so rendering
costs no extra DynamoDB call. Amounts are integer minor units of the group currency."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional

from app.auth.principal import link_of_user_id
from app.money.currencies import format_minor

SOMEONE = "Someone"


@dataclass
class Context:
    """What rendering may name: display names by user and participant id, the group."""

    group_name: Optional[str] = None
    currency: Optional[str] = None
    user_names: Mapping[str, str] = field(default_factory=dict)
    participant_names: Mapping[str, str] = field(default_factory=dict)


def _money(payload: Mapping, ctx: Context) -> str:
    amount = payload.get("amount")
    if amount is None or not ctx.currency:
        return ""
    return f"{format_minor(int(amount), ctx.currency)} {ctx.currency}"


def _what(payload: Mapping, ctx: Context) -> str:
    """'"Dinner" (45.50 EUR)', or whichever part is known."""
    description = payload.get("description")
    money = _money(payload, ctx)
    if description and money:
        return f"\u201c{description}\u201d ({money})"
    return f"\u201c{description}\u201d" if description else money


def _reminder(who: str, group: str, payload: Mapping) -> tuple:
    """'Olive reminds you: you owe 12.30 EUR in Trip. Pay: https://paypal.me/olive/12.30EUR'."""
    owed = [item for item in payload.get("owed") or () if item.get("currency")]
    amounts = " and ".join(f"{format_minor(int(item['amount']), item['currency'])} "
                           f"{item['currency']}" for item in owed) or "money"
    links = [link["url"] if link.get("url") else "a SEPA transfer (QR in the app)"
             for item in owed for link in item.get("payTo") or ()]
    pay = f" Pay: {', '.join(links)}" if links else ""
    return f"Payment reminder from {who}", f"{who} reminds you: you owe {amounts} in {group}.{pay}"


def _who(actor_user_id: str, ctx: Context) -> str:
    """The actor as the group knows them. A share-link session's writes carry its stand-in
    id (``link:<linkId>:<participantId>``, no account): its guest's name, marked as the
    activity marks it, "Bo (by link)"."""
    link = link_of_user_id(actor_user_id)
    if link is not None:
        name = ctx.participant_names.get(link[1])
        return f"{name} (by link)" if name else SOMEONE
    return ctx.user_names.get(actor_user_id) or SOMEONE


def render(event_type: str, actor_user_id: str, payload: Optional[Mapping],
           ctx: Context) -> tuple:
    """(title, body) for one event; unknown types get a neutral text, never an error."""
    payload = payload or {}
    who = _who(actor_user_id, ctx)
    group = ctx.group_name or "your group"
    what = _what(payload, ctx)
    suffix = f" {what}" if what else ""
    if event_type == "EXPENSE_ADDED" and int(payload.get("occurrences") or 1) > 1:
        # One recurring template's catch-up, summed up in one event (recurring.occurrences).
        return (f"New expenses in {group}",
                f"Recurring{suffix or ' expense'} was recorded {int(payload['occurrences'])} "
                f"times, for {payload.get('firstSlot')} to {payload.get('slot')}.")
    if event_type == "EXPENSE_ADDED":
        return f"New expense in {group}", f"{who} added{suffix or ' an expense'}."
    if event_type == "EXPENSE_UPDATED":
        return f"Expense changed in {group}", f"{who} updated{suffix or ' an expense'}."
    if event_type == "EXPENSE_DELETED":
        return f"Expense deleted in {group}", f"{who} deleted{suffix or ' an expense'}."
    if event_type == "COMMENT_ADDED":
        return f"New comment in {group}", f"{who} commented on an expense."
    if event_type == "MENTION":
        return f"{who} mentioned you", f"{who} mentioned you in a comment in {group}."
    if event_type == "SETTLEMENT_ADDED":
        payer = ctx.participant_names.get(payload.get("payerId", ""), SOMEONE)
        payee = ctx.participant_names.get(payload.get("payeeId", ""), SOMEONE)
        money = _money(payload, ctx) or "a payment"
        return f"Payment recorded in {group}", f"{who} recorded {payer} paying {payee} {money}."
    if event_type == "JOIN_REQUEST_SUBMITTED":
        return f"Join request for {group}", f"{who} asked to join {group}."
    if event_type == "JOIN_REQUEST_DECIDED":
        status = str(payload.get("status", "decided")).lower()
        return f"Join request {status}", f"Your request to join {group} was {status}."
    if event_type == "GROUP_INVITATION":
        return f"Invitation to {group}", f"{who} invited you to join {group}."
    if event_type == "FRIEND_REQUEST":
        return "New friend request", f"{who} wants to be your friend."
    if event_type == "FRIEND_ACCEPTED":
        return "Friend request accepted", f"{who} accepted your friend request."
    if event_type == "RECURRING_CREATED":
        return f"Recurring expense in {group}", f"{who} set up{suffix or ' a recurring expense'}."
    if event_type == "RECURRING_REMINDER":
        return f"Upcoming expense in {group}", f"Recurring{suffix or ' expense'} is due soon."
    if event_type == "REMINDER":
        return _reminder(who, group, payload)
    return "TailSpend", f"Something changed in {group}."
