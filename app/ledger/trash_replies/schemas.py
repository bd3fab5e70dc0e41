"""The trash's replies (GET /groups/{groupId}/trash, POST .../trash/{id}/restore), camelCase
only here; app.ledger.schemas re-exports them."""
from __future__ import annotations

from marshmallow import fields, validate

from app.api.schemas import DerivedNested, DerivedString, OmitNone, Strict, page_schema
from app.ledger.schemas import ExpenseSchema, SettlementSchema
from models.groups import ChangeKind, Expense

TRASH_KINDS = [ChangeKind.EXPENSE, ChangeKind.SETTLEMENT]


class TrashItemSchema(Strict):
    """Dumps a Trashed row: ``description`` is an expense's, or a settlement's note."""

    kind = fields.String(required=True, attribute="Kind", validate=validate.OneOf(TRASH_KINDS))
    id = fields.String(required=True, attribute="ResourceId")
    description = fields.String(attribute="Description", allow_none=True)
    amount = fields.Integer(required=True, attribute="Amount")
    currency = fields.String(attribute="Currency", allow_none=True)
    deletedAt = fields.String(required=True, attribute="DeletedAt")
    deletedBy = fields.String(required=True, attribute="DeletedBy")  # a participant id
    expiresAt = DerivedString(lambda row: row.expires_at, required=True, metadata={
        "description": "When it leaves the trash for good (30 days after its deletion)."})


class RestoredSchema(OmitNone, Strict):
    """A restored row, version one greater than at its deletion: ``kind`` says which."""

    OMIT_NONE = ("expense", "settlement")  # the other kind is left out
    kind = DerivedString(lambda row: TRASH_KINDS[not isinstance(row, Expense)], required=True)
    expense = DerivedNested(lambda row: row if isinstance(row, Expense) else None, ExpenseSchema)
    settlement = DerivedNested(lambda row: None if isinstance(row, Expense) else row, SettlementSchema)

TrashPageSchema = page_schema(TrashItemSchema, "TrashPage")
