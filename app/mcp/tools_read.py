"""Read tools (groups:read): list_groups, get_group, get_balances, explain_balance,
list_expenses, get_expense, list_settlements.

Each runs what its REST route runs (see each ``rest_view``): the same authorization by group
role through the request's cached group access (app.api.context.group_access; a group the
user is not in is NOT_FOUND), the same service call, the same cursor scopes, and the REST
response schema shapes the result. The filters REST lists lack (a group's name; an expense's
text, category, participant) narrow the same listing, and their cursors are bound to them."""
from __future__ import annotations

from app.ledger import views as balances_api, views as expenses_api
from app.groups import views as groups_api
from app.groups import views as home_api
from app.ledger import views as settlements_api
from app.api.context import group_access, scope
from app.mcp.tool import Tool
from marshmallow import fields, validate

from app.api.schemas import CURRENCY, Id
from app.ledger.explained.schemas import StatementSchema
from app.ledger.schemas import BalancesSchema
from app.money.pairwise import VIEWS
from app.api.schemas import PageArgsSchema, page_schema
from app.ledger.schemas import ExpenseDetailSchema, ExpensePageSchema
from app.groups.schemas import HomeGroupPageSchema
from app.mcp.schemas import (ExpenseArgs, GroupArgs, GroupRosterSchema, ListExpensesArgs,
                             ListGroupsArgs)
from app.ledger.schemas import SettlementSchema
from app.core.filtered_pages import filtered
from app.groups import home, participants
from app.ledger import balances, expense_search, rounding, settlements, statement


class ListSettlementsArgs(GroupArgs, PageArgsSchema):
    pass


class GetBalancesArgs(GroupArgs):
    view = fields.String(validate=validate.OneOf(VIEWS), metadata={
        "description": "simplified: the fewest payments that settle everyone; pairwise: what "
                       "each person owes each other person from the expenses themselves. "
                       "Default: the group's own setting (simplifyDebts)."})


class ExplainBalanceArgs(GroupArgs, PageArgsSchema):
    participantId = Id(required=True)
    currency = fields.String(validate=CURRENCY, metadata={
        "description": "A kept currency's section (default: the group currency)."})


def _list_groups(caller, args: dict) -> dict:
    name = args.get("name")
    cursor_scope = scope("me-groups" if name is None else f"me-groups:{name.casefold()}")

    def fetch(size, after) -> dict:
        return home.my_groups(caller.user_id, limit=size, cursor=after,
                              scope=cursor_scope).as_dict()

    if name is None:
        return fetch(args["limit"], args["cursor"])
    return filtered(fetch, lambda group: name.casefold() in group["name"].casefold(),
                    limit=args["limit"], cursor=args["cursor"])


def _get_group(caller, args: dict) -> dict:
    access = group_access(args["groupId"])
    return {"group": access, "participants": participants.list_participants(access)}


def _get_balances(caller, args: dict) -> dict:
    access = group_access(args["groupId"], prefetch=balances.BALANCES_PREFETCH)
    return rounding.with_rounding(balances.group_balances(access, args.get("view")),
                                  access.group, access.prefetched.get(balances.BALANCE))


def _explain_balance(caller, args: dict) -> dict:
    pid = args["participantId"]
    access = group_access(args["groupId"], prefetch=statement.prefetch({"participant_id": pid}))
    return statement.statement(access, pid, currency=args.get("currency"),
                               limit=args["limit"], cursor=args["cursor"],
                               scope=balances_api.statement_scope(access.group_id, pid,
                                                                  args.get("currency")))


def _list_expenses(caller, args: dict) -> dict:
    access = group_access(args["groupId"])
    date_from, date_to = args.get("from_"), args.get("to")
    text, category, who = args.get("text"), args.get("category"), args.get("participantId")
    listing = expenses_api.listing_scope(access.group_id, date_from, date_to)
    if text or category or who:  # a filtered listing's cursors resume only that listing
        listing += f":{text}:{category}:{who}"
    return expense_search.search_expenses(
        access, date_from=date_from, date_to=date_to, text=text, category=category,
        participant_id=who, limit=args["limit"], cursor=args["cursor"], scope=listing)


def _get_expense(caller, args: dict):
    return expenses_api.expense_detail(group_access(args["groupId"]), args["expenseId"])


def _list_settlements(caller, args: dict) -> dict:
    access = group_access(args["groupId"])
    return settlements.list_settlements(access, limit=args["limit"], cursor=args["cursor"],
                                        scope=settlements_api.settlements_listing_scope(access.group_id))


TOOLS = (
    Tool(
        name="list_groups", title="List my groups",
        description="The user's expense groups: each one's groupId, name, currency, the "
                    "user's role and participant id (myParticipantId) and the user's net "
                    "balance (positive: the user is owed money). Start here: the other tools "
                    "take a groupId. Filter by name to find one group; a page may hold fewer "
                    "than limit groups, pass nextCursor back as cursor for more.",
        args=ListGroupsArgs, result=HomeGroupPageSchema, rest_view=home_api.my_groups,
        run=_list_groups),
    Tool(
        name="get_group", title="Get a group and its members",
        description="One group (name, currency, the user's role) and its roster: every "
                    "participant's participantId, display name, type (USER or GUEST) and "
                    "role. Use these participant ids in add_expense, record_settlement and "
                    "the list_expenses participant filter.",
        args=GroupArgs, result=GroupRosterSchema, rest_view=groups_api.get_group,
        run=_get_group),
    Tool(
        name="get_balances", title="Get balances and how to settle up",
        description="Every participant's net balance in the group (positive: is owed money) "
                    "and the payments that settle everyone up (transfers: fromParticipantId "
                    "pays toParticipantId the amount): the fewest possible (view "
                    "simplified), or each person's debt to each other person (view pairwise; "
                    "the group's default is its simplifyDebts setting). settle_up records "
                    "them all; record_settlement records one. All of that is in the group "
                    "currency; amounts kept in another currency (recorded with a currency "
                    "and no rate) have their own nets and transfers in otherCurrencies, one "
                    "section per currency (settle those with record_settlement in that "
                    "currency).",
        args=GetBalancesArgs, result=BalancesSchema, rest_view=balances_api.get_balances,
        run=_get_balances),
    Tool(
        name="explain_balance", title="Explain one person's balance",
        description="Why a participant's balance is what it is: every expense, income, "
                    "payment (settlement) and currency conversion that moved it, oldest "
                    "first, each with what they paid, what they owed, its effect and the "
                    "running balance after it (the last page's last runningNet is the "
                    "balance get_balances shows). One currency section at a time (currency, "
                    "default the group's). Pages: pass nextCursor back as cursor.",
        args=ExplainBalanceArgs, result=StatementSchema, rest_view=balances_api.get_statement,
        run=_explain_balance),
    Tool(
        name="list_expenses", title="List or search expenses",
        description="A group's expenses, newest first by date, with their expenseId and "
                    "version. Optional filters: from/to dates (inclusive), text (in the "
                    "description or item names), category, participantId (paid or shares). "
                    "A filtered page may hold fewer than limit expenses: when nextCursor is "
                    "not null, pass it back as cursor (with the same filters) for more.",
        args=ListExpensesArgs, result=ExpensePageSchema, rest_view=expenses_api.list_expenses,
        run=_list_expenses),
    Tool(
        name="get_expense", title="Get an expense and its comments",
        description="One expense in full: who paid, each item's splits with what each "
                    "participant owes, its version (update_expense needs it), its first "
                    "comments, and its receipt photo when one is attached (receipt.receiptId: "
                    "read it with get_receipt).",
        args=ExpenseArgs, result=ExpenseDetailSchema, rest_view=expenses_api.get_expense,
        run=_get_expense),
    Tool(
        name="list_settlements", title="List recorded payments",
        description="The payments recorded between participants of a group (settlements), "
                    "newest first, with their settlementId. Pages: pass nextCursor back as "
                    "cursor.",
        args=ListSettlementsArgs, result=page_schema(SettlementSchema, "SettlementPage"),
        rest_view=settlements_api.list_settlements, run=_list_settlements),
)
