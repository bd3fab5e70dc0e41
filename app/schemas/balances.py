"""Balances, the settle-up plan and the group export."""
from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.common import Strict


class BalanceRowSchema(Strict):
    participantId = fields.String(required=True)
    displayName = fields.String(required=True)
    net = fields.Integer(required=True, metadata={
        "description": "paid - owed (+ settlements), minor units; positive = is owed money"})


class TransferSchema(Strict):
    fromParticipantId = fields.String(required=True)
    toParticipantId = fields.String(required=True)
    amount = fields.Integer(required=True)


class BalancesSchema(Strict):
    currency = fields.String(required=True)
    revision = fields.Integer(required=True)
    balances = fields.List(fields.Nested(BalanceRowSchema), required=True)
    transfers = fields.List(fields.Nested(TransferSchema), required=True, metadata={
        "description": "Settles every net with as few payments as possible"})


class ExportArgsSchema(Strict):
    format = fields.String(load_default="csv", validate=validate.OneOf(["csv", "json"]))
