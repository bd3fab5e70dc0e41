"""The ledger: expenses, comments, settlements, balances and conversions."""
from __future__ import annotations

from flask import request
from marshmallow import RAISE
from app.api.context import principal, scope
from app.api.needs import needs
from app.api.schemas import PageArgsSchema, page_schema
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.core.clock import today
from app.currencies import rates
from app.ledger import pay_links
from app.ledger import (expense_delete, expense_search, expenses, comments, settlements, balances,
                        conversions, display, rounding, statement, trash)
from app.ledger.expenses import comments_scope
from app.ledger.explained.schemas import StatementArgsSchema, StatementSchema
from models.groups import Expense
from app.ledger.schemas import (ExpenseCreateSchema, ExpenseDetailSchema, ExpenseListArgsSchema,
                                ExpensePageSchema, ExpensePatchSchema, ExpenseSchema,
                                CommentBodySchema, CommentPageSchema, CommentSchema,
                                SettlementCreateSchema, SettlementPatchSchema, SettlementSchema,
                                BalancesArgsSchema, BalancesSchema, ConversionCreateSchema,
                                ConversionSchema, RatesArgsSchema, RatesSchema)
from app.ledger.trash_replies.schemas import RestoredSchema, TrashPageSchema


# ---------------------------------------------------------------- expenses
# Expenses: /groups/{groupId}/expenses and /expenses/{expenseId}.

expenses_blp = Blueprint("expenses", __name__, description="Expenses")

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


@expenses_blp.route("/groups/<uuid:groupId>/expenses", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", idempotent=True, link=True, prefetch=balances.BALANCES_PREFETCH)
@expenses_blp.arguments(ExpenseCreateSchema)
@expenses_blp.response(201, ExpenseSchema)
@errors(expenses_blp, FORBIDDEN, NOT_FOUND, *CREATE_REFUSED)
def create_expense(body, access):
    """Record an expense (MEMBER+); its balance delta and event land in the same write.

    Rounding: PERCENT, SHARES and EQUAL splits owe the floor of their ideal share, then the
    leftover minor units go one each, in list order, only to splits whose ideal share is
    fractional; every owed amount is within one minor unit of its ideal share and each
    item's owed amounts add up to its amount exactly. Payments must add up to the total.
    """
    return expenses.create_expense(access, body)


@expenses_blp.route("/groups/<uuid:groupId>/expenses")
@needs(role="VIEWER", pat="groups:read", etag=True, link=True)
@expenses_blp.arguments(ExpenseListArgsSchema, location="query")
@expenses_blp.response(200, ExpensePageSchema)
@errors(expenses_blp, NOT_FOUND)
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


@expenses_blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>")
@needs(role="VIEWER", pat="groups:read", etag=True, link=True)
@expenses_blp.response(200, ExpenseDetailSchema)
@errors(expenses_blp, NOT_FOUND)
def get_expense(access, expense_id):
    """The expense with its comments (from one Query)."""
    return expense_detail(access, str(expense_id))


@expenses_blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>", methods=["PATCH"])
@needs(role="MEMBER", pat="expenses:write", link=True, prefetch=balances.BALANCES_PREFETCH)
@expenses_blp.arguments(ExpensePatchSchema)
@expenses_blp.response(200, ExpenseSchema)
@errors(expenses_blp, FORBIDDEN, NOT_FOUND, EDIT_REFUSED)
def update_expense(body, access, expense_id):
    """Full or partial edit of the version read (MEMBER+); stale → 409 VERSION_CONFLICT."""
    return expenses.update_expense(access, str(expense_id), body.version, body.changes)


@expenses_blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>", methods=["DELETE"])
@needs(role="MEMBER", pat="expenses:write", link=True, prefetch=balances.BALANCES_PREFETCH)
@expenses_blp.response(204)
@errors(expenses_blp, FORBIDDEN, NOT_FOUND, (409, "CONCURRENT_UPDATE: the expense kept changing."))
def delete_expense(access, expense_id):
    """Move the expense to the trash for 30 days, with its comments (MEMBER+)."""
    expense_delete.delete_expense(access, str(expense_id))


@expenses_blp.route("/expenses/<uuid:expenseId>")
@needs(pat="groups:read")
@expenses_blp.response(200, ExpenseDetailSchema)
@errors(expenses_blp, (404, "No such expense, or the caller is not a participant of its group."))
def get_expense_by_id(expense_id):
    """An expense by id alone; the caller must be a participant of its group (else 404)."""
    access = expenses.locate_for(principal().user_id, str(expense_id))
    return expense_detail(access, str(expense_id))


# ---------------------------------------------------------------- comments
# Expense comments: /groups/{groupId}/expenses/{expenseId}/comments.

comments_blp = Blueprint("comments", __name__, description="Expense comments")

THREAD = "/groups/<uuid:groupId>/expenses/<uuid:expenseId>/comments"


@comments_blp.route(THREAD)
@needs(role="VIEWER", pat="groups:read", link=True)
@comments_blp.arguments(PageArgsSchema, location="query")
@comments_blp.response(200, CommentPageSchema)
@errors(comments_blp, NOT_FOUND)
def list_comments(args, access, expense_id):
    """Oldest first (VIEWER+)."""
    return comments.list_comments(access, str(expense_id), limit=args["limit"],
                                  cursor=args["cursor"],
                                  scope=scope(comments_scope(access.group_id, str(expense_id))))


@comments_blp.route(THREAD, methods=["POST"])
@needs(role="VIEWER", pat="expenses:write", idempotent=True, link=True)
@comments_blp.arguments(CommentBodySchema)
@comments_blp.response(201, CommentSchema)
@errors(comments_blp, NOT_FOUND, (409, "IDEMPOTENCY_IN_PROGRESS."),
        (422, "IDEMPOTENCY_KEY_REUSED: the key was used with another body."))
def add_comment(body, access, expense_id):
    """Comment (VIEWER+); ``@handle`` mentions of group users raise MENTION events."""
    return comments.add_comment(access, str(expense_id), body["body"])


@comments_blp.route(THREAD + "/<uuid:commentId>", methods=["PATCH"])
@needs(role="VIEWER", pat="expenses:write", link=True)
@comments_blp.arguments(CommentBodySchema)
@comments_blp.response(200, CommentSchema)
@errors(comments_blp, (403, "Only the author may edit a comment."), NOT_FOUND)
def edit_comment(body, access, expense_id, comment_id):
    """The author rewrites their comment."""
    return comments.edit_comment(access, str(expense_id), str(comment_id), body["body"])


@comments_blp.route(THREAD + "/<uuid:commentId>", methods=["DELETE"])
@needs(role="VIEWER", pat="expenses:write", link=True)
@comments_blp.response(204)
@errors(comments_blp, (403, "Only the author or an OWNER may delete a comment."), NOT_FOUND)
def delete_comment(access, expense_id, comment_id):
    """The author, or an OWNER, deletes a comment."""
    comments.delete_comment(access, str(expense_id), str(comment_id))


# ---------------------------------------------------------------- settlements
# Settlements: /groups/{groupId}/settlements.

settlements_blp = Blueprint("settlements", __name__, description="Settlements")

ONE = "/groups/<uuid:groupId>/settlements/<uuid:settlementId>"


def settlements_listing_scope(group_id: str) -> str:
    """The cursor scope of a group's settlement list (the list_settlements tool shares it)."""
    return scope(f"settlements:{group_id}")


@settlements_blp.route("/groups/<uuid:groupId>/settlements", methods=["POST"])
@needs(role="MEMBER", pat="settlements:write", idempotent=True, link=True, prefetch=balances.BALANCES_PREFETCH)
@settlements_blp.arguments(SettlementCreateSchema)
@settlements_blp.response(201, SettlementSchema)
@errors(settlements_blp, FORBIDDEN, NOT_FOUND, *CREATE_REFUSED)
def create_settlement(body, access):
    """Record that the payer paid the payee back (MEMBER+)."""
    return settlements.create_settlement(access, body)


@settlements_blp.route("/groups/<uuid:groupId>/settlements")
@needs(role="VIEWER", pat="groups:read", etag=True, link=True)
@settlements_blp.arguments(PageArgsSchema, location="query")
@settlements_blp.response(200, page_schema(SettlementSchema, "SettlementPage"))
@errors(settlements_blp, NOT_FOUND)
def list_settlements(args, access):
    """Newest first (VIEWER+)."""
    return settlements.list_settlements(access, limit=args["limit"], cursor=args["cursor"],
                                        scope=settlements_listing_scope(access.group_id))


@settlements_blp.route(ONE)
@needs(role="VIEWER", pat="groups:read", etag=True, link=True)
@settlements_blp.response(200, SettlementSchema)
@errors(settlements_blp, NOT_FOUND)
def get_settlement(access, settlement_id):
    """One settlement (VIEWER+)."""
    return settlements.get_settlement(access, str(settlement_id))


@settlements_blp.route(ONE, methods=["PATCH"])
@needs(role="MEMBER", pat="settlements:write", link=True, prefetch=balances.BALANCES_PREFETCH)
@settlements_blp.arguments(SettlementPatchSchema)
@settlements_blp.response(200, SettlementSchema)
@errors(settlements_blp, FORBIDDEN, NOT_FOUND, EDIT_REFUSED)
def update_settlement(body, access, settlement_id):
    """Edit the version read (MEMBER+); stale → 409 VERSION_CONFLICT."""
    return settlements.update_settlement(access, str(settlement_id), body.version, body.changes)


@settlements_blp.route(ONE, methods=["DELETE"])
@needs(role="MEMBER", pat="settlements:write", link=True, prefetch=balances.BALANCES_PREFETCH)
@settlements_blp.response(204)
@errors(settlements_blp, FORBIDDEN, NOT_FOUND, (409, "CONCURRENT_UPDATE: the settlement kept changing."))
def delete_settlement(access, settlement_id):
    """Delete a settlement (MEMBER+); its balance effect is reversed atomically."""
    settlements.delete_settlement(access, str(settlement_id))


# ---------------------------------------------------------------- balances
# Balances and settle-up (/groups/{groupId}/balances), conversions of a kept currency
# (/groups/{groupId}/conversions) and the reference rates (/fx/rates).

balances_blp = Blueprint("balances", __name__, description="Balances, settle-up and currencies")
RATE_UNAVAILABLE = (422, "RATE_UNAVAILABLE: no reference rate is known for that currency "
                         "and day.")


def _payees(view_args) -> tuple:
    """The roster's payment methods join the access check's BatchGetItem (two calls in
    all). Not for a conditional read: it usually ends at that check with a 304 (one call)."""
    if request.headers.get("If-None-Match"):
        return ()
    return pay_links.prefetch(str(view_args["group_id"]))


def _same_rates() -> bool:
    """A conditional read unless ``displayCurrency`` is asked: today's rate moves without
    the group's revision."""
    return not request.args.get("displayCurrency")


@balances_blp.route("/groups/<uuid:groupId>/balances")
@needs(role="VIEWER", pat="groups:read", prefetch=(*balances.BALANCES_PREFETCH, _payees),
       etag=_same_rates, link=True)
@balances_blp.arguments(BalancesArgsSchema, location="query", unknown=RAISE)
@balances_blp.response(200, BalancesSchema)
@errors(balances_blp, NOT_FOUND, RATE_UNAVAILABLE)
def get_balances(args, access):
    """Every participant's net and the fewest payments that settle them, per currency
    (VIEWER+); ``displayCurrency`` adds the main nets shown in another currency."""
    result = pay_links.with_pay_to(balances.group_balances(access, args.get("view")),
                                   group_name=access.group.Name)
    result = rounding.with_rounding(result, access.group,
                                    access.prefetched.get(balances.BALANCE))
    if args.get("displayCurrency"):
        result = display.with_display(result, args["displayCurrency"], today())
    return result


@balances_blp.route("/groups/<uuid:groupId>/participants/<uuid:participantId>/statement")
@needs(role="VIEWER", pat="groups:read", prefetch=(statement.prefetch,))
@balances_blp.arguments(StatementArgsSchema, location="query", unknown=RAISE)
@balances_blp.response(200, StatementSchema)
@errors(balances_blp, NOT_FOUND)
def get_statement(args, access, participant_id):
    """Every row that moved a participant's net in one currency section, oldest first, with
    its effect and the running net (VIEWER+); one Query per page."""
    pid = str(participant_id)
    return statement.statement(access, pid, currency=args.get("currency"),
                               limit=args["limit"], cursor=args["cursor"],
                               scope=statement_scope(access.group_id, pid,
                                                     args.get("currency")))


def statement_scope(group_id: str, participant_id: str, currency) -> str:
    """The cursor scope of one participant's statement in one section (REST and MCP)."""
    return scope(f"statement:{group_id}:{participant_id}:{currency or ''}")


@balances_blp.route("/groups/<uuid:groupId>/conversions", methods=["POST"])
@needs(role="MEMBER", pat="settlements:write", idempotent=True, prefetch=balances.BALANCES_PREFETCH)
@balances_blp.arguments(ConversionCreateSchema)
@balances_blp.response(201, ConversionSchema)
@errors(balances_blp, FORBIDDEN, NOT_FOUND, *CREATE_REFUSED)
def create_conversion(body, access):
    """Move every kept net of a currency into the main currency at one rate (MEMBER+)."""
    return conversions.convert_kept(access, body)


@balances_blp.route("/groups/<uuid:groupId>/conversions")
@needs(role="VIEWER", pat="groups:read")
@balances_blp.arguments(PageArgsSchema, location="query")
@balances_blp.response(200, page_schema(ConversionSchema, "ConversionPage"))
@errors(balances_blp, NOT_FOUND)
def list_conversions(args, access):
    """Newest first (VIEWER+)."""
    return conversions.list_conversions(access, limit=args["limit"], cursor=args["cursor"],
                                        scope=scope(f"conversions:{access.group_id}"))


@balances_blp.route("/groups/<uuid:groupId>/conversions/<uuid:conversionId>")
@needs(role="VIEWER", pat="groups:read")
@balances_blp.response(200, ConversionSchema)
@errors(balances_blp, NOT_FOUND)
def get_conversion(access, conversion_id):
    """One conversion (VIEWER+)."""
    return conversions.get_conversion(access, str(conversion_id))


@balances_blp.route("/groups/<uuid:groupId>/conversions/<uuid:conversionId>", methods=["DELETE"])
@needs(role="MEMBER", pat="settlements:write", prefetch=balances.BALANCES_PREFETCH)
@balances_blp.response(204)
@errors(balances_blp, FORBIDDEN, NOT_FOUND, (409, "PARTICIPANT_UNAVAILABLE (someone it names is "
                                         "mid-transfer) or CONCURRENT_UPDATE."))
def delete_conversion(access, conversion_id):
    """Undo a conversion (MEMBER+): its own kept nets come back and its converted nets go,
    exactly, in one transaction."""
    conversions.delete_conversion(access, str(conversion_id))


@balances_blp.route("/fx/rates")
@needs(pat="groups:read")
@balances_blp.arguments(RatesArgsSchema, location="query", unknown=RAISE)
@balances_blp.response(200, RatesSchema)
@errors(balances_blp, RATE_UNAVAILABLE)
def get_rates(args):
    """ECB reference rates per 1 ``base`` (default EUR) on ``date`` (default today): the
    latest publication on or before it (weekends and holidays fall back)."""
    principal()  # any signed-in user
    return rates.rates_for(args.get("base") or "EUR", args.get("date") or today())


# ---------------------------------------------------------------- trash
# Deleted expenses and settlements, kept 30 days: /groups/{groupId}/trash.

trash_blp = Blueprint("trash", __name__, description="Deleted expenses and settlements, kept "
                                                     "30 days to be restored")


@trash_blp.route("/groups/<uuid:groupId>/trash")
@needs(role="VIEWER", pat="groups:read")
@trash_blp.arguments(PageArgsSchema, location="query", unknown=RAISE)
@trash_blp.response(200, TrashPageSchema)
@errors(trash_blp, NOT_FOUND)
def list_trash(args, access):
    """The group's trash, newest deletion first (VIEWER+)."""
    return trash.list_trash(access, limit=args["limit"], cursor=args["cursor"],
                            scope=scope(f"trash:{access.group_id}")).as_dict()


@trash_blp.route("/groups/<uuid:groupId>/trash/<uuid:id>/restore", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", prefetch=balances.BALANCES_PREFETCH)
@trash_blp.response(200, RestoredSchema)
@errors(trash_blp, FORBIDDEN, (404, "Not in the trash: never deleted, restored already, or "
                                    "deleted more than 30 days ago."),
        (409, "PARTICIPANT_GONE (details.participantId: removed since the deletion), "
              "PARTICIPANT_UNAVAILABLE (held by a transfer) or CURRENCY_CHANGED."))
def restore_from_trash(access, id):  # the path names it id (api.md)
    """Put a deleted expense or settlement back with its balance effect (MEMBER+)."""
    row = trash.restore(access, str(id))
    return row if isinstance(row, Expense) else settlements.GroupSettlement(
        row, access.group.Currency)
