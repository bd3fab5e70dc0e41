"""Insight and getting paid: payment methods, stats, reminders."""
from __future__ import annotations

from marshmallow import RAISE

from app.api.context import principal, scope
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.insight.schemas import (METHODS_EXAMPLE, REMINDER_EXAMPLE, REMINDER_REQUEST_EXAMPLE,
                                 STATS_EXAMPLE, GroupStatsSchema, MyStatsArgsSchema,
                                 MyStatsSchema, PaymentMethodsSchema, PersonSettleResultSchema,
                                 ReminderCreateSchema, ReminderSchema, SettleWithPersonSchema,
                                 StatsArgsSchema)
from app.people.schemas import (MY_EXPENSES_EXAMPLE, PEOPLE_EXAMPLE, MyExpensePageSchema,
                                MyExpensesArgsSchema, PeopleBalancesSchema)
from app.core.clock import today
from app.insight import payment_methods, reminders, settle_with_person, stats
from app.people import my_expenses, people_balances
from app.ledger.expense_search import words_of

blp = Blueprint("insight", __name__, description="Insight and getting paid")


@blp.route("/users/me/payment-methods")
@needs(pat="profile:write")
@blp.response(200, PaymentMethodsSchema, example=METHODS_EXAMPLE)
def get_payment_methods():
    """The caller's payment methods (others see them only as ``payTo`` links on the
    settle-up transfers of groups they share with the caller)."""
    return payment_methods.get_methods(principal().user_id)


@blp.route("/users/me/payment-methods", methods=["PUT"])
@needs(pat="profile:write")
@blp.arguments(PaymentMethodsSchema, example=METHODS_EXAMPLE)
@blp.response(200, PaymentMethodsSchema, example=METHODS_EXAMPLE)
def put_payment_methods(body):
    """Replace the caller's payment methods (at most 5). Handles follow each service's own
    rules; a SEPA IBAN is checked by its checksum and needs the holder's name; a refused
    shape is a 400 naming the field (``methods.<i>.<field>``)."""
    return payment_methods.put_methods(principal().user_id, body["methods"])


@blp.route("/groups/<uuid:groupId>/stats")
@needs(role="VIEWER", pat="groups:read")
@blp.arguments(StatsArgsSchema, location="query", unknown=RAISE)
@blp.response(200, GroupStatsSchema, example=STATS_EXAMPLE)
@errors(blp, NOT_FOUND)
def group_stats(args, access):
    """Spending by category, month or participant (VIEWER+): ``spent`` = owed shares,
    ``paid`` = payments; settlements and conversions are not spending; converted rows count
    by their groupAmounts, kept rows in their currency's section. One pass over the
    expense rows in the date range."""
    return stats.group_stats(access, by=args["by"], date_from=args.get("from_"),
                             date_to=args.get("to"))


@blp.route("/users/me/stats")
@needs(pat="groups:read", liveness_in_view=True)
@blp.arguments(MyStatsArgsSchema, location="query", unknown=RAISE)
@blp.response(200, MyStatsSchema)
@errors(blp, (422, "RATE_UNAVAILABLE: no reference rate for displayCurrency today."))
def my_stats(args):
    """The caller's own share across their groups, by category, month or group, one section
    per currency; ``displayCurrency`` adds the totals at today's reference rate."""
    return stats.my_stats(principal().user_id, by=args["by"], date_from=args.get("from_"),
                          date_to=args.get("to"), display_currency=args.get("displayCurrency"),
                          day=today())


@blp.route("/groups/<uuid:groupId>/reminders", methods=["POST"])
@needs(role="MEMBER", pat="settlements:write")
@blp.arguments(ReminderCreateSchema, example=REMINDER_REQUEST_EXAMPLE)
@blp.response(202, ReminderSchema, example=REMINDER_EXAMPLE)
@errors(blp, FORBIDDEN, NOT_FOUND,
        (409, "PARTICIPANT_UNAVAILABLE (details.participantId: no such participant in this "
              "group, as the expense and settlement writers answer); NOTHING_OWED: the "
              "participant is a guest, or pays the caller nothing in the group's settle-up "
              "plan."),
        (429, "REMINDER_TOO_SOON: this caller reminded this user in this group less than 24 h "
              "ago (Retry-After: seconds until the next is allowed); or RATE_LIMITED."))
def send_reminder(body, access):
    """Remind a user who, in the settle-up plan, pays the caller (MEMBER+): a REMINDER
    notification (push and history, as the recipient's preferences and mutes allow) naming
    what they owe in each currency and the caller's payment links. One per sender,
    recipient and group per 24 h. No Idempotency-Key: a retry is refused as too soon and
    sends nothing twice. PAT scope ``settlements:write``: a reminder is about getting paid
    back, beside recording the settlement it asks for."""
    return reminders.send_reminder(access, str(body["participantId"]))


@blp.route("/users/me/people")
@needs(pat="groups:read", liveness_in_view=True)
@blp.response(200, PeopleBalancesSchema, example=PEOPLE_EXAMPLE)
def my_people():
    """Everyone I share a group with, by account (guests are not people): per currency the
    transfers between us in each group's settle-up plan, summed (``net`` > 0: they owe me),
    so it agrees with what balances tells both of us; people with all nets 0 come last.
    Where I owe, ``payTo`` links from their payment methods. Reads my groups' balance rows
    in batches, never a roster or an expense."""
    return {"items": people_balances.my_people(principal().user_id)}


@blp.route("/users/me/people/<uuid:userId>/settle", methods=["POST"])
@needs(pat="settlements:write", idempotent=True)
@blp.arguments(SettleWithPersonSchema)
@blp.response(201, PersonSettleResultSchema)
@errors(blp, FORBIDDEN, (409, "NOTHING_OWED (no shared group's transfers go that way in that "
                              "currency), TOO_MANY_GROUPS (more than 25 groups) or "
                              "CONCURRENT_UPDATE (the balances kept changing)."))
def settle_with(body, user_id):
    """One payment between me and another account, recorded as one settlement in every group
    we share whose transfers (in the group's default view) go that way between us in that
    currency, each for that transfer's amount, in one transaction (all or nothing);
    ``payTo`` links pay the total. FORBIDDEN where I am only a VIEWER of such a group."""
    return settle_with_person.settle_with_person(
        principal().user_id, str(user_id), currency=body["currency"],
        direction=body["direction"], date=body.get("date"), note=body.get("note"))


@blp.route("/users/me/expenses")
@needs(pat="groups:read", liveness_in_view=True)
@blp.arguments(MyExpensesArgsSchema, location="query", unknown=RAISE)
@blp.response(200, MyExpensePageSchema, example=MY_EXPENSES_EXAMPLE)
def list_my_expenses(args):
    """Expenses of all my groups that involve me (I pay or owe), newest first, each with
    ``groupId`` and ``groupName``; ``withUserId``: that account pays or owes too; ``q``:
    words in the description or an item name. A bounded fan-out over my groups with a
    merged cursor: a page may hold fewer than ``limit`` items (even none) with a
    ``nextCursor``; following it never loses or repeats an item."""
    with_user = str(args["withUserId"]) if args.get("withUserId") else None
    date_from, date_to = args.get("from_"), args.get("to")
    listing = my_expenses_scope(date_from, date_to, with_user, args.get("q"))
    return my_expenses.my_expenses(principal().user_id, with_user_id=with_user,
                                   text=args.get("q"), date_from=date_from, date_to=date_to,
                                   limit=args["limit"], cursor=args["cursor"], scope=listing)


def my_expenses_scope(date_from, date_to, with_user, text) -> str:
    """The cursor scope of one cross-group listing (caller, dates, person, words); the MCP
    search_expenses tool shares it."""
    return scope(f"my-expenses:{date_from}:{date_to}:{with_user}:{' '.join(words_of(text))}")
