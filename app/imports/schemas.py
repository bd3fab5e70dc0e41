"""Import: POST /imports and GET /imports/{importId}."""
from __future__ import annotations

from marshmallow import fields, validate

from app.groups.schemas import GroupSchema, ParticipantSchema
from app.ledger.schemas import BalancesSchema, CommentSchema, ExpenseSchema, SettlementSchema
from app.recurring.schemas import RecurringSchema
from app.api.schemas import CURRENCY, DisplayName, OmitNone, Schema, Strict
from app.limits import IMPORT_FORMATS as FORMATS, IMPORT_MAX_BYTES as MAX_BYTES


class ImportCreateSchema(Strict):
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    content = fields.String(required=True, validate=validate.Length(min=1), metadata={
        "description": f"The file's text, at most {MAX_BYTES} bytes as UTF-8 (5 MB)"})
    name = DisplayName(metadata={
        "description": "The new group's name (default: the file's, or the source app's)"})
    currency = fields.String(validate=CURRENCY, metadata={
        "description": "The group's main currency (default: the file's most used one)"})
    me = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "The member of the file the caller is: that participant becomes "
                       "the caller's OWNER participant"})
    convert = fields.String(validate=validate.OneOf(["auto"]), metadata={
        "description": "auto: convert rows in other currencies at each row's ECB rate "
                       "(default: keep them in their currency)"})


class ImportStartedSchema(Strict):
    importId = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["RUNNING"]))
    groupId = fields.String(required=True)


class ImportCountsSchema(Strict):
    participants = fields.Integer(required=True)
    expenses = fields.Integer(required=True)
    settlements = fields.Integer(required=True)
    skipped = fields.Integer(required=True)


class ImportNoteSchema(Schema):
    line = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The file's line (CSV) or the record's position in its list (JSON)"})
    message = fields.String(required=True)


class ImportSchema(OmitNone, Strict):
    OMIT_NONE = ("error",)

    importId = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["RUNNING", "DONE", "FAILED"]))
    groupId = fields.String(required=True)
    format = fields.String(required=True)
    counts = fields.Nested(ImportCountsSchema, required=True)
    warnings = fields.List(fields.Nested(ImportNoteSchema), required=True)
    error = fields.Nested(ImportNoteSchema, allow_none=True, metadata={
        "description": "FAILED only: the first bad line and why"})


class ExportArgsSchema(Strict):
    format = fields.String(load_default="csv", validate=validate.OneOf(["csv", "json"]))


class ExportSchema(Strict):
    """``?format=json``: dumps a ledger GroupExport (documented as an object, not by field)."""

    group = fields.Nested(GroupSchema)
    participants = fields.List(fields.Nested(ParticipantSchema))
    expenses = fields.List(fields.Nested(ExpenseSchema))
    settlements = fields.List(fields.Nested(SettlementSchema))
    balances = fields.Nested(BalancesSchema)
    # Every expense's comments (oldest first) and every recurring template, so the
    # tailspend-json import brings the whole group back.
    comments = fields.List(fields.Nested(CommentSchema))
    recurring = fields.List(fields.Nested(RecurringSchema))
