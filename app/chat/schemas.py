"""Expense chat assistant: sessions, messages, drafts, credits."""
from __future__ import annotations

import json

from marshmallow import fields, validate

from app.api.schemas import (DerivedList, DerivedString, Id, PageArgsSchema, Schema, Strict,
                             StrictInteger, page_schema)
from app.api.schemas import Derived
from app.groups.schemas import ParticipantSchema


class DerivedDict(Derived, fields.Dict):
    pass


class SessionCreateSchema(Strict):
    groupId = Id(allow_none=True, load_default=None)


class MessageCreateSchema(Strict):
    text = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class ConfirmSchema(Strict):
    version = StrictInteger(required=True, validate=validate.Range(min=1))


class CreditGrantSchema(Strict):
    delta = StrictInteger(required=True, validate=validate.Range(min=1, max=1_000_000))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200))


class SessionSchema(Schema):
    sessionId = fields.String(required=True, attribute="SessionId")
    groupId = fields.String(allow_none=True, required=True, attribute="GroupId")
    createdAt = fields.String(required=True, attribute="CreatedAt")


class MessageSchema(Schema):
    messageId = fields.String(required=True, attribute="MessageId")
    role = fields.String(required=True, attribute="Role",
                         validate=validate.OneOf(["USER", "ASSISTANT"]))
    text = fields.String(required=True, attribute="Text")
    # The worker's claim (WORKING) is still PENDING to a client: the contract's three states.
    status = DerivedString(lambda row: "PENDING" if row.Status == "WORKING" else row.Status,
                           required=True, validate=validate.OneOf(["PENDING", "DONE", "FAILED"]))
    questions = DerivedList(lambda row: list(row.Questions or []), fields.String(),
                            required=True)
    createdAt = fields.String(required=True, attribute="CreatedAt")


class AdmittedSchema(Schema):
    messageId = fields.String(required=True, attribute="MessageId")
    status = fields.String(required=True, attribute="Status")


class DraftParticipantSchema(Schema):
    participantId = fields.String(required=True)
    displayName = fields.String(required=True)


class DraftHouseholdSchema(Schema):
    participantId = fields.String(required=True)
    household = fields.String(required=True, allow_none=True, metadata={
        "description": "The household label the participant is to hold; null: none"})


DRAFT_KINDS = ["EXPENSE", "HOUSEHOLD"]


class DraftSchema(Schema):
    draftId = fields.String(required=True, attribute="DraftId")
    version = fields.Integer(required=True, attribute="Version")
    groupId = fields.String(required=True, attribute="GroupId")
    status = fields.String(required=True, attribute="Status",
                           validate=validate.OneOf(["OPEN", "SAVED", "DISCARDED"]))
    kind = DerivedString(lambda row: row.kind, required=True,
                         validate=validate.OneOf(DRAFT_KINDS), metadata={
                             "description": "What confirming does: EXPENSE creates `expense`; "
                                            "HOUSEHOLD sets `households` (PATCH "
                                            "participant's rules)"})
    expenseId = fields.String(allow_none=True, attribute="ExpenseId")
    expense = DerivedDict(lambda row: json.loads(row.Body) if row.kind == "EXPENSE" else None,
                          required=True, allow_none=True, metadata={
        "description": "A full expense body (the POST /groups/{groupId}/expenses fields); "
                       "null for a HOUSEHOLD draft"})
    households = DerivedList(
        lambda row: json.loads(row.Body) if row.kind == "HOUSEHOLD" else None,
        fields.Nested(DraftHouseholdSchema), allow_none=True, metadata={
            "description": "A HOUSEHOLD draft's changes (null for an EXPENSE draft)"})
    participants = DerivedList(lambda row: json.loads(row.Participants),
                               fields.Nested(DraftParticipantSchema), required=True)
    questions = DerivedList(lambda row: list(row.Questions or []), fields.String(),
                            required=True)


class SessionDetailSchema(SessionSchema):
    messages = fields.List(fields.Nested(MessageSchema), required=True)
    drafts = fields.List(fields.Nested(DraftSchema), required=True)


SessionPageSchema = page_schema(SessionSchema, "ChatSessionPage")


class HouseholdsConfirmedSchema(Strict):
    """A confirmed HOUSEHOLD draft: the participants it names, as they are now."""

    kind = fields.String(required=True, validate=validate.OneOf(["HOUSEHOLD"]), metadata={
        "description": "The draft's kind: its households were set"})
    participants = fields.List(fields.Nested(ParticipantSchema), required=True, metadata={
        "description": "The participants the draft names, with their households now"})


class CreditEntrySchema(Schema):
    at = fields.String(required=True, attribute="CreatedAt")
    delta = fields.Integer(required=True, attribute="Delta")
    reason = fields.String(required=True, attribute="Reason")
    messageId = fields.String(allow_none=True, attribute="MessageId")


class CreditsSchema(Schema):
    balance = fields.Integer(required=True)
    items = fields.List(fields.Nested(CreditEntrySchema), required=True)
    nextCursor = fields.String(allow_none=True, required=True, attribute="next_cursor")


class CreditBalanceSchema(Schema):
    balance = fields.Integer(required=True)


ListArgsSchema = PageArgsSchema
