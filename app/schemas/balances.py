"""Balances, the settle-up plan and the group export."""
from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.common import Strict
from app.schemas.expenses import ExpenseSchema
from app.schemas.groups import GroupSchema, ParticipantSchema
from app.schemas.settlements import SettlementSchema


class BalanceRowSchema(Strict):
    participantId = fields.String(required=True, attribute="participant_id")
    displayName = fields.String(required=True, attribute="display_name")
    net = fields.Integer(required=True, metadata={
        "description": "paid - owed (+ settlements), minor units; positive = is owed money"})


class TransferSchema(Strict):
    fromParticipantId = fields.String(required=True, attribute="from_id")
    toParticipantId = fields.String(required=True, attribute="to_id")
    amount = fields.Integer(required=True)


class BalancesSchema(Strict):
    """Dumps a ledger Balances (nets folded over the roster, and the settle-up plan)."""

    currency = fields.String(required=True)
    revision = fields.Integer(required=True)
    balances = fields.List(fields.Nested(BalanceRowSchema), required=True, attribute="rows")
    transfers = fields.List(fields.Nested(TransferSchema), required=True, metadata={
        "description": "Settles every net with as few payments as possible"})


class ExportArgsSchema(Strict):
    format = fields.String(load_default="csv", validate=validate.OneOf(["csv", "json"]))


class ExportSchema(Strict):
    """``?format=json``: dumps a ledger GroupExport (documented as an object, not by field)."""

    group = fields.Nested(GroupSchema)
    participants = fields.List(fields.Nested(ParticipantSchema))
    expenses = fields.List(fields.Nested(ExpenseSchema))
    settlements = fields.List(fields.Nested(SettlementSchema))
    balances = fields.Nested(BalancesSchema)
