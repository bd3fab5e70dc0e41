"""A participant's statement: its query arguments and reply (camelCase only here)."""
from __future__ import annotations

from marshmallow import fields

from app.api.schemas import CURRENCY, PageArgsSchema, Strict


class StatementArgsSchema(PageArgsSchema):
    currency = fields.String(validate=CURRENCY, metadata={"description": "A kept section"})


class StatementLineSchema(Strict):
    """One row that moved the participant's net (INCOME: paid = -received, owed = -share)."""

    kind = fields.String(required=True, metadata={
        "enum": ["EXPENSE", "INCOME", "SETTLEMENT", "CONVERSION"]})
    id = fields.String(required=True)
    date = fields.String(required=True, metadata={"description": "A conversion's: its day"})
    description = fields.String(allow_none=True, required=True)
    paid = fields.Integer(required=True)
    owed = fields.Integer(required=True)
    effect = fields.Integer(required=True, metadata={"description": "paid - owed (never 0)"})
    runningNet = fields.Integer(required=True, attribute="running_net")


class StatementSchema(Strict):
    """A participant's statement in one currency section, oldest first by date, creation."""

    currency = fields.String(required=True)
    net = fields.Integer(required=True, metadata={"description": "The last runningNet"})
    items = fields.List(fields.Nested(StatementLineSchema), required=True)
    nextCursor = fields.String(allow_none=True, required=True)
