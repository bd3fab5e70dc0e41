"""Balances and settle-up: /groups/{groupId}/balances."""
from __future__ import annotations

from app.api.conditional import etagged
from app.api.context import group_access
from app.api.pat import pat_scope
from app.api.spec import NOT_FOUND, Blueprint, errors
from app.schemas.balances import BalancesSchema
from app.services.ledger import balances

blp = Blueprint("balances", __name__, description="Balances and settle-up")


@blp.route("/groups/<uuid:groupId>/balances")
@blp.response(200, BalancesSchema)
@errors(blp, NOT_FOUND)
@pat_scope("groups:read")
@etagged(blp)
def get_balances(group_id):
    """Every participant's net and the fewest payments that settle them (VIEWER+)."""
    access = group_access(group_id, prefetch=balances.BALANCES_PREFETCH)
    return balances.group_balances(access)
