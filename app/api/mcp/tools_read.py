"""Read tools: list_groups, get_group, get_balances, list_expenses (groups:read).

Each runs what its REST route runs (see each ``rest_view``): the same authorization by
group role (a group the user is not in is NOT_FOUND), the same service call, the same
cursor scopes, and the REST response schema shapes the result."""
from __future__ import annotations

from app.api import balances as balances_api, expenses as expenses_api, groups as groups_api
from app.api import home as home_api
from app.api.context import scope
from app.api.mcp.tool import Tool
from app.schemas.balances import BalancesSchema
from app.schemas.expenses import ExpensePageSchema
from app.schemas.groups import HomeGroupPageSchema
from app.schemas.mcp import GroupArgs, GroupRosterSchema, ListExpensesArgs, ListGroupsArgs
from app.services.core.access import authorize
from app.services.groups import home, participants
from app.services.ledger import balances, expenses


def _list_groups(caller, args: dict) -> dict:
    return home.my_groups(caller.user_id, limit=args["limit"], cursor=args["cursor"],
                          scope=scope("me-groups")).as_dict()


def _get_group(caller, args: dict) -> dict:
    access = authorize(caller.user_id, args["groupId"])
    return {"group": access,
            "participants": participants.list_participants(access)}


def _get_balances(caller, args: dict) -> dict:
    access = authorize(caller.user_id, args["groupId"], prefetch=balances.BALANCES_PREFETCH)
    return balances.group_balances(access)


def _list_expenses(caller, args: dict) -> dict:
    access = authorize(caller.user_id, args["groupId"])
    date_from, date_to = args.get("from_"), args.get("to")
    return expenses.list_expenses(
        access, date_from=date_from, date_to=date_to, limit=args["limit"],
        cursor=args["cursor"], scope=expenses_api.listing_scope(access.group_id, date_from,
                                                                date_to))


TOOLS = (
    Tool(
        name="list_groups", title="List my groups",
        description="The user's expense groups with their currency, the user's role and "
                    "participant id, and the user's net balance in each (positive: the user is "
                    "owed money). Pages: pass nextCursor back as cursor.",
        args=ListGroupsArgs, result=HomeGroupPageSchema, rest_view=home_api.my_groups, run=_list_groups),
    Tool(
        name="get_group", title="Get a group and its members",
        description="One group (name, currency, the user's role) and its roster: every "
                    "participant's id, display name, type (USER or GUEST) and role. Use the "
                    "participant ids in add_expense and record_settlement.",
        args=GroupArgs, result=GroupRosterSchema, rest_view=groups_api.get_group, run=_get_group),
    Tool(
        name="get_balances", title="Get balances and how to settle up",
        description="Every participant's net balance in the group (positive: is owed money) and "
                    "the fewest payments that settle everyone up (transfers).",
        args=GroupArgs, result=BalancesSchema, rest_view=balances_api.get_balances,
        run=_get_balances),
    Tool(
        name="list_expenses", title="List expenses",
        description="A group's expenses, newest first by date; optional from/to dates "
                    "(YYYY-MM-DD, inclusive), limit (1-100) and cursor (nextCursor of the previous "
                    "page).",
        args=ListExpensesArgs, result=ExpensePageSchema, rest_view=expenses_api.list_expenses,
        run=_list_expenses),
)
