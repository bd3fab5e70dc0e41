"""Insight tools: get_stats, search_expenses, list_people_balances (groups:read) and
settle_with_person (settlements:write: "settle up with Bo everywhere").

Each runs its REST twin's service (see each ``rest_view``) with the same scope and cursor
scope; money goes out as minor units with a formatted twin (``spentFormatted``,
``netFormatted``, ``amountFormatted``: "12.30 EUR"), as every other tool shows it."""
from __future__ import annotations

from marshmallow import fields, validate

from app.insight import views as insight_api
from app.api.context import group_access
from app.mcp.tool import Tool
from app.people.schemas import MyExpensePageSchema, PeopleBalancesSchema
from app.errors import Invalid
from app.api.schemas import CURRENCY, Id, PageArgsSchema, Strict
from app.ledger.schemas import DateString
from app.insight.schemas import (GroupStatsSchema, MyStatsSchema, PersonSettleResultSchema,
                                 SettleWithPersonSchema)
from app.insight import settle_with_person
from app.mcp.tools_write import NO_GROUP, once
from app.core.clock import today
from app.insight import stats
from app.people import my_expenses, people_balances


class GetStatsArgs(Strict):
    groupId = Id(metadata={"description": "One group's stats (everyone's shares); omit for the "
                                          "user's own share across all their groups."})
    by = fields.String(load_default="category", validate=validate.OneOf(
        ["category", "month", "participant", "group"]), metadata={
        "description": "Rows by category, month (YYYY-MM) or, with groupId, participant; "
                       "without groupId, by group."})
    from_ = DateString(data_key="from")
    to = DateString()
    displayCurrency = fields.String(validate=CURRENCY, metadata={
        "description": "Without groupId: also the totals converted into this currency at "
                       "today's reference rate."})


class StatsResult(Strict):
    group = fields.Nested(GroupStatsSchema, metadata={"description": "With groupId"})
    mine = fields.Nested(MyStatsSchema, metadata={"description": "Without groupId"})


class SearchExpensesArgs(PageArgsSchema):
    withUserId = Id(metadata={"description": "Only expenses this person (userId from "
                                             "list_people_balances) pays or shares in too."})
    text = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "Words that must all occur in the description or an item name "
                       "(case- and accent-insensitive)."})
    from_ = DateString(data_key="from")
    to = DateString()


class NoArgs(Strict):
    pass


def _get_stats(caller, args: dict) -> dict:
    by, date_from, date_to = args["by"], args.get("from_"), args.get("to")
    if args.get("groupId"):
        if by == "group":
            raise Invalid("The arguments have invalid fields.", details={
                "by": ["by=group is for stats across groups: omit groupId."]})
        access = group_access(args["groupId"])
        return {"group": stats.group_stats(access, by=by, date_from=date_from, date_to=date_to)}
    if by == "participant":
        raise Invalid("The arguments have invalid fields.", details={
            "by": ["by=participant needs a groupId (participants are per group)."]})
    return {"mine": stats.my_stats(caller.user_id, by=by, date_from=date_from, date_to=date_to,
                                   display_currency=args.get("displayCurrency"), day=today())}


def _search_expenses(caller, args: dict) -> dict:
    with_user = args.get("withUserId")
    date_from, date_to = args.get("from_"), args.get("to")
    return my_expenses.my_expenses(
        caller.user_id, with_user_id=with_user, text=args.get("text"), date_from=date_from,
        date_to=date_to, limit=args["limit"], cursor=args["cursor"],
        scope=insight_api.my_expenses_scope(date_from, date_to, with_user, args.get("text")))


def _list_people(caller, args: dict) -> dict:
    return {"items": people_balances.my_people(caller.user_id)}


class SettleWithPersonArgs(SettleWithPersonSchema):
    userId = Id(required=True, metadata={
        "description": "The person's userId (from list_people_balances)."})
    idempotencyKey = fields.String(validate=validate.Length(min=1, max=128))


def _settle_with_person(caller, args: dict) -> dict:
    return once(caller, NO_GROUP, "settle_with_person", args,
                lambda: settle_with_person.settle_with_person(
                    caller.user_id, args["userId"], currency=args["currency"],
                    direction=args["direction"], date=args.get("date"),
                    note=args.get("note")), PersonSettleResultSchema)


TOOLS = (
    Tool(
        name="get_stats", title="Spending stats",
        description="Where the money went. With groupId: the group's spending by category, "
                    "month or participant (spent = what was consumed, paid = what was paid; "
                    "settlements and currency conversions are not spending), main currency "
                    "first, kept currencies in otherCurrencies. Without groupId: the user's "
                    "own share across all their groups by category, month or group, one "
                    "section per currency, with displayCurrency for a converted total. "
                    "Optional from/to dates (inclusive).",
        args=GetStatsArgs, result=StatsResult, rest_view=insight_api.group_stats,
        run=_get_stats),
    Tool(
        name="search_expenses", title="Search my expenses across groups",
        description="Expenses of all the user's groups that involve the user, newest first, "
                    "each with groupId and groupName. withUserId (from "
                    "list_people_balances) keeps those another person is in too: \"all my "
                    "expenses with Bo\". Optional text and from/to dates. A page may hold "
                    "fewer than limit expenses: when nextCursor is not null, pass it back as "
                    "cursor (with the same filters) for more.",
        args=SearchExpensesArgs, result=MyExpensePageSchema,
        rest_view=insight_api.list_my_expenses, run=_search_expenses),
    Tool(
        name="list_people_balances", title="Who owes whom across my groups",
        description="Everyone the user shares a group with (accounts, not guests): per "
                    "currency what they owe the user (net > 0) or the user owes them "
                    "(net < 0), summed over the groups' settle-up plans, with each group's "
                    "part and, where the user owes, payTo links from the person's payment "
                    "methods. People with nothing owed come last.",
        args=NoArgs, result=PeopleBalancesSchema, rest_view=insight_api.my_people,
        run=_list_people),
    Tool(
        name="settle_with_person", title="Settle up with someone across all groups",
        description="Record one real payment between the user and another person (\"settle "
                    "up with Bo everywhere\"): a settlement in every group they share whose "
                    "plan has a transfer between them in that currency and direction "
                    "(direction PAY: the user pays them; RECEIVE: they pay the user), each for "
                    "that transfer's amount, all at once or not at all. Take userId and the "
                    "currency from list_people_balances (net < 0: PAY; net > 0: RECEIVE). "
                    "Answers each group's settlement, the total and payTo links for it. "
                    "Reuse the same idempotencyKey when retrying.",
        args=SettleWithPersonArgs, result=PersonSettleResultSchema,
        rest_view=insight_api.settle_with, run=_settle_with_person, creates=True),
)
