"""The trash's reply schemas (camelCase only here): the ledger's schemas.py is at its size cap."""
from __future__ import annotations

from datetime import datetime, timezone

from marshmallow import fields, validate

from app.api.schemas import DerivedNested, DerivedString, OmitNone, Strict, page_schema
from app.ledger.schemas import ExpenseSchema, SettlementSchema
from models.groups import ChangeKind, Expense

KINDS = [ChangeKind.EXPENSE, ChangeKind.SETTLEMENT]


def _expires_at(row) -> str:
    moment = datetime.fromtimestamp(int(row.ExpiresAt), tz=timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


class TrashItemSchema(Strict):
    """Dumps a Trashed row."""

    kind = fields.String(required=True, attribute="Kind", validate=validate.OneOf(KINDS))
    id = fields.String(required=True, attribute="ResourceId", metadata={
        "description": "The expense's or settlement's id: POST .../trash/{id}/restore."})
    description = fields.String(attribute="Description", allow_none=True, metadata={
        "description": "The expense's description, or the settlement's note."})
    amount = fields.Integer(required=True, attribute="Amount", metadata={
        "description": "Minor units of ``currency``."})
    currency = fields.String(attribute="Currency", allow_none=True)
    deletedAt = fields.String(required=True, attribute="DeletedAt")
    deletedBy = fields.String(required=True, attribute="DeletedBy", metadata={
        "description": "The deleting participant's id."})
    expiresAt = DerivedString(_expires_at, required=True, metadata={
        "description": "When it leaves the trash for good (30 days after its deletion)."})


TrashPageSchema = page_schema(TrashItemSchema, "TrashPage")


class RestoredSchema(OmitNone, Strict):
    """A restored row: ``kind`` says which of ``expense`` and ``settlement`` it is (the
    other is left out)."""

    OMIT_NONE = ("expense", "settlement")
    kind = DerivedString(lambda row: KINDS[0] if isinstance(row, Expense) else KINDS[1],
                         required=True, validate=validate.OneOf(KINDS))
    expense = DerivedNested(lambda row: row if isinstance(row, Expense) else None,
                            ExpenseSchema, metadata={
                                "description": "The expense back, version one greater than "
                                               "at its deletion, with its comments."})
    settlement = DerivedNested(lambda row: None if isinstance(row, Expense) else row,
                               SettlementSchema, metadata={
                                   "description": "The settlement back, version one greater."})
