"""Expenses: /groups/{groupId}/expenses and /expenses/{expenseId}."""
from __future__ import annotations

from app.api.context import principal, scope
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.schemas.expenses import (ExpenseCreateSchema, ExpenseDetailSchema,
                                  ExpenseListArgsSchema, ExpensePageSchema, ExpensePatchSchema,
                                  ExpenseSchema)
from app.services.ledger import expense_delete, expense_search, expenses

blp = Blueprint("expenses", __name__, description="Expenses")

CREATE_REFUSED = [(409, "PARTICIPANT_UNAVAILABLE (details.participantId), CURRENCY_CHANGED or "
                        "IDEMPOTENCY_IN_PROGRESS."),
                  (422, "IDEMPOTENCY_KEY_REUSED: the key was used with another body; "
                        "RATE_UNAVAILABLE: exchangeRate \"auto\" and no reference rate is "
                        "known for the currency and date (send a rate).")]
EDIT_REFUSED = (409, "VERSION_CONFLICT (stale version) or PARTICIPANT_UNAVAILABLE.")




def listing_scope(group_id: str, date_from, date_to) -> str:
    """The cursor scope of one expense listing (route, caller, group, filters): a cursor
    works only for the listing that issued it (the MCP list_expenses tool shares it)."""
    return scope(f"expenses:{group_id}:{date_from}:{date_to}")


def expense_detail(access, expense_id: str) -> dict:
    """The expense with its first comments (the get_expense tool answers this too)."""
    return expenses.get_expense(access, expense_id, comments_cursor_scope=scope(
        expenses.comments_scope(access.group_id, expense_id)))


@blp.route("/groups/<uuid:groupId>/expenses", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", idempotent=True)
@blp.arguments(ExpenseCreateSchema)
@blp.response(201, ExpenseSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, *CREATE_REFUSED)
def create_expense(body, access):
    """Record an expense (MEMBER+); its balance delta and event land in the same write.

    Rounding: PERCENT, SHARES and EQUAL splits owe the floor of their ideal share, then the
    leftover minor units go one each, in list order, only to splits whose ideal share is
    fractional; every owed amount is within one minor unit of its ideal share and each
    item's owed amounts add up to its amount exactly. Payments must add up to the total.
    """
    return expenses.create_expense(access, body)


@blp.route("/groups/<uuid:groupId>/expenses")
@needs(role="VIEWER", pat="groups:read", etag=True)
@blp.arguments(ExpenseListArgsSchema, location="query")
@blp.response(200, ExpensePageSchema)
@errors(blp, NOT_FOUND)
def list_expenses(args, access):
    """Newest first by date then creation; ``from``/``to`` are inclusive dates.

    Filters (``q``, ``participantId``, ``category``, ``minAmount``/``maxAmount``) keep the
    order and the paging: a page reads at most 1,000 rows, so it may hold fewer than
    ``limit`` items (even none) with a ``nextCursor``; follow it for the rest."""
    date_from, date_to = args.get("from_"), args.get("to")
    who = str(args["participantId"]) if args.get("participantId") else None
    filters = expense_search.Filters(args.get("q"), args.get("category"), who,
                                     args.get("minAmount"), args.get("maxAmount"))
    listing = listing_scope(access.group_id, date_from, date_to)
    if filters.any:
        listing += filters.scope_suffix()
    return expense_search.search_expenses(
        access, date_from=date_from, date_to=date_to, text=filters.text,
        category=filters.category, participant_id=who, min_amount=filters.min_amount,
        max_amount=filters.max_amount, limit=args["limit"], cursor=args["cursor"],
        scope=listing)


@blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>")
@needs(role="VIEWER", pat="groups:read", etag=True)
@blp.response(200, ExpenseDetailSchema)
@errors(blp, NOT_FOUND)
def get_expense(access, expense_id):
    """The expense with its comments (from one Query)."""
    return expense_detail(access, str(expense_id))


@blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>", methods=["PATCH"])
@needs(role="MEMBER", pat="expenses:write")
@blp.arguments(ExpensePatchSchema)
@blp.response(200, ExpenseSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, EDIT_REFUSED)
def update_expense(body, access, expense_id):
    """Full or partial edit of the version read (MEMBER+); stale → 409 VERSION_CONFLICT."""
    return expenses.update_expense(access, str(expense_id), body.version, body.changes)


@blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>", methods=["DELETE"])
@needs(role="MEMBER", pat="expenses:write")
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "CONCURRENT_UPDATE: the expense kept changing."))
def delete_expense(access, expense_id):
    """Delete the expense and every comment (MEMBER+)."""
    expense_delete.delete_expense(access, str(expense_id))


@blp.route("/expenses/<uuid:expenseId>")
@needs(pat="groups:read")
@blp.response(200, ExpenseDetailSchema)
@errors(blp, (404, "No such expense, or the caller is not a participant of its group."))
def get_expense_by_id(expense_id):
    """An expense by id alone; the caller must be a participant of its group (else 404)."""
    access = expenses.locate_for(principal().user_id, str(expense_id))
    return expense_detail(access, str(expense_id))
