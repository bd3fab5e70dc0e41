"""Settlements: /groups/{groupId}/settlements."""
from __future__ import annotations

from app.api.context import scope
from app.api.expenses import CREATE_REFUSED, EDIT_REFUSED
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.schemas.common import PageArgsSchema, page_schema
from app.schemas.settlements import (SettlementCreateSchema, SettlementPatchSchema,
                                     SettlementSchema)
from app.services.ledger import settlements

blp = Blueprint("settlements", __name__, description="Settlements")

ONE = "/groups/<uuid:groupId>/settlements/<uuid:settlementId>"


def listing_scope(group_id: str) -> str:
    """The cursor scope of a group's settlement list (the list_settlements tool shares it)."""
    return scope(f"settlements:{group_id}")


@blp.route("/groups/<uuid:groupId>/settlements", methods=["POST"])
@needs(role="MEMBER", pat="settlements:write", idempotent=True)
@blp.arguments(SettlementCreateSchema)
@blp.response(201, SettlementSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, *CREATE_REFUSED)
def create_settlement(body, access):
    """Record that the payer paid the payee back (MEMBER+)."""
    return settlements.create_settlement(access, payer_id=body["payerId"],
                                         payee_id=body["payeeId"], amount=body["amount"],
                                         date=body.get("date"), note=body.get("note"),
                                         currency=body.get("currency"),
                                         exchange_rate=body.get("exchangeRate"),
                                         group_amount=body.get("groupAmount"))


@blp.route("/groups/<uuid:groupId>/settlements")
@needs(role="VIEWER", pat="groups:read", etag=True)
@blp.arguments(PageArgsSchema, location="query")
@blp.response(200, page_schema(SettlementSchema, "SettlementPage"))
@errors(blp, NOT_FOUND)
def list_settlements(args, access):
    """Newest first (VIEWER+)."""
    return settlements.list_settlements(access, limit=args["limit"], cursor=args["cursor"],
                                        scope=listing_scope(access.group_id))


@blp.route(ONE)
@needs(role="VIEWER", pat="groups:read", etag=True)
@blp.response(200, SettlementSchema)
@errors(blp, NOT_FOUND)
def get_settlement(access, settlement_id):
    """One settlement (VIEWER+)."""
    return settlements.get_settlement(access, str(settlement_id))


@blp.route(ONE, methods=["PATCH"])
@needs(role="MEMBER", pat="settlements:write")
@blp.arguments(SettlementPatchSchema)
@blp.response(200, SettlementSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, EDIT_REFUSED)
def update_settlement(body, access, settlement_id):
    """Edit the version read (MEMBER+); stale → 409 VERSION_CONFLICT."""
    version = body.pop("version")
    return settlements.update_settlement(access, str(settlement_id), version, body)


@blp.route(ONE, methods=["DELETE"])
@needs(role="MEMBER", pat="settlements:write")
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "CONCURRENT_UPDATE: the settlement kept changing."))
def delete_settlement(access, settlement_id):
    """Delete a settlement (MEMBER+); its balance effect is reversed atomically."""
    settlements.delete_settlement(access, str(settlement_id))
