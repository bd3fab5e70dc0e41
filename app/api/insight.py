"""Insight and getting paid: payment methods, stats."""
from __future__ import annotations

from marshmallow import RAISE

from app.api.context import group_access, principal
from app.api.pat import pat_scope
from app.api.spec import NOT_FOUND, Blueprint, errors
from app.schemas.insight import (METHODS_EXAMPLE, STATS_EXAMPLE, GroupStatsSchema,
                                 MyStatsArgsSchema, MyStatsSchema, PaymentMethodsSchema,
                                 StatsArgsSchema)
from app.services.core.clock import today
from app.services.insight import payment_methods, stats

blp = Blueprint("insight", __name__, description="Insight and getting paid")


@blp.route("/users/me/payment-methods")
@blp.response(200, PaymentMethodsSchema, example=METHODS_EXAMPLE)
@pat_scope("profile:write")
def get_payment_methods():
    """The caller's payment methods (others see them only as ``payTo`` links on the
    settle-up transfers of groups they share with the caller)."""
    return payment_methods.get_methods(principal().user_id)


@blp.route("/users/me/payment-methods", methods=["PUT"])
@blp.arguments(PaymentMethodsSchema, example=METHODS_EXAMPLE)
@blp.response(200, PaymentMethodsSchema, example=METHODS_EXAMPLE)
@pat_scope("profile:write")
def put_payment_methods(body):
    """Replace the caller's payment methods (at most 5). Handles follow each service's own
    rules; a SEPA IBAN is checked by its checksum and needs the holder's name; a refused
    shape is a 400 naming the field (``methods.<i>.<field>``)."""
    return payment_methods.put_methods(principal().user_id, body["methods"])


@blp.route("/groups/<uuid:groupId>/stats")
@blp.arguments(StatsArgsSchema, location="query", unknown=RAISE)
@blp.response(200, GroupStatsSchema, example=STATS_EXAMPLE)
@errors(blp, NOT_FOUND)
@pat_scope("groups:read")
def group_stats(args, group_id):
    """Spending by category, month or participant (VIEWER+): ``spent`` = owed shares,
    ``paid`` = payments; settlements and conversions are not spending; converted rows count
    by their groupAmounts, kept rows in their currency's section. One pass over the
    expense rows in the date range."""
    access = group_access(group_id)
    return stats.group_stats(access, by=args["by"], date_from=args.get("from_"),
                             date_to=args.get("to"))


@blp.route("/users/me/stats")
@blp.arguments(MyStatsArgsSchema, location="query", unknown=RAISE)
@blp.response(200, MyStatsSchema)
@errors(blp, (422, "RATE_UNAVAILABLE: no reference rate for displayCurrency today."))
@pat_scope("groups:read")
def my_stats(args):
    """The caller's own share across their groups, by category, month or group, one section
    per currency; ``displayCurrency`` adds the totals at today's reference rate."""
    return stats.my_stats(principal().user_id, by=args["by"], date_from=args.get("from_"),
                          date_to=args.get("to"), display_currency=args.get("displayCurrency"),
                          day=today())
