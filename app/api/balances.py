"""Balances and settle-up (/groups/{groupId}/balances), conversions of a kept currency
(/groups/{groupId}/conversions) and the reference rates (/fx/rates)."""
from __future__ import annotations

from flask import request
from marshmallow import RAISE

from app.api.context import principal, scope
from app.api.expenses import CREATE_REFUSED
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.schemas.balances import (BalancesArgsSchema, BalancesSchema, ConversionCreateSchema,
                                  ConversionSchema, RatesArgsSchema, RatesSchema)
from app.schemas.common import PageArgsSchema, page_schema
from app.services.core.clock import today
from app.services.fx import rates
from app.services.insight import pay_links
from app.services.ledger import balances, conversions, display

blp = Blueprint("balances", __name__, description="Balances, settle-up and currencies")
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


@blp.route("/groups/<uuid:groupId>/balances")
@needs(role="VIEWER", pat="groups:read", prefetch=(*balances.BALANCES_PREFETCH, _payees),
       etag=_same_rates)
@blp.arguments(BalancesArgsSchema, location="query", unknown=RAISE)
@blp.response(200, BalancesSchema)
@errors(blp, NOT_FOUND, RATE_UNAVAILABLE)
def get_balances(args, access):
    """Every participant's net and the fewest payments that settle them, per currency
    (VIEWER+); ``displayCurrency`` adds the main nets shown in another currency."""
    result = pay_links.with_pay_to(balances.group_balances(access),
                                   group_name=access.group.Name)
    if args.get("displayCurrency"):
        result = display.with_display(result, args["displayCurrency"], today())
    return result


@blp.route("/groups/<uuid:groupId>/conversions", methods=["POST"])
@needs(role="MEMBER", pat="settlements:write", idempotent=True)
@blp.arguments(ConversionCreateSchema)
@blp.response(201, ConversionSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, *CREATE_REFUSED)
def create_conversion(body, access):
    """Move every kept net of a currency into the main currency at one rate (MEMBER+)."""
    return conversions.convert_kept(access, body)


@blp.route("/groups/<uuid:groupId>/conversions")
@needs(role="VIEWER", pat="groups:read")
@blp.arguments(PageArgsSchema, location="query")
@blp.response(200, page_schema(ConversionSchema, "ConversionPage"))
@errors(blp, NOT_FOUND)
def list_conversions(args, access):
    """Newest first (VIEWER+)."""
    return conversions.list_conversions(access, limit=args["limit"], cursor=args["cursor"],
                                        scope=scope(f"conversions:{access.group_id}"))


@blp.route("/groups/<uuid:groupId>/conversions/<uuid:conversionId>")
@needs(role="VIEWER", pat="groups:read")
@blp.response(200, ConversionSchema)
@errors(blp, NOT_FOUND)
def get_conversion(access, conversion_id):
    """One conversion (VIEWER+)."""
    return conversions.get_conversion(access, str(conversion_id))


@blp.route("/groups/<uuid:groupId>/conversions/<uuid:conversionId>", methods=["DELETE"])
@needs(role="MEMBER", pat="settlements:write")
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "PARTICIPANT_UNAVAILABLE (someone it names is "
                                         "mid-transfer) or CONCURRENT_UPDATE."))
def delete_conversion(access, conversion_id):
    """Undo a conversion (MEMBER+): its own kept nets come back and its converted nets go,
    exactly, in one transaction."""
    conversions.delete_conversion(access, str(conversion_id))


@blp.route("/fx/rates")
@needs(pat="groups:read")
@blp.arguments(RatesArgsSchema, location="query", unknown=RAISE)
@blp.response(200, RatesSchema)
@errors(blp, RATE_UNAVAILABLE)
def get_rates(args):
    """ECB reference rates per 1 ``base`` (default EUR) on ``date`` (default today): the
    latest publication on or before it (weekends and holidays fall back)."""
    principal()  # any signed-in user
    return rates.rates_for(args.get("base") or "EUR", args.get("date") or today())
