"""Groups and participants."""
from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.common import CURRENCY, Strict

NAME = [validate.Length(min=1, max=100), validate.Regexp(r"\S", error="Must not be blank.")]
GUEST_ROLE = validate.OneOf(["MEMBER", "VIEWER"])


class GroupCreateSchema(Strict):
    name = fields.String(required=True, validate=NAME)
    currency = fields.String(required=True, validate=CURRENCY)


class GroupSchema(Strict):
    groupId = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(required=True)
    createdBy = fields.String(required=True)
    createdAt = fields.String(allow_none=True)
    updatedAt = fields.String(allow_none=True)
    ownerCount = fields.Integer(required=True)
    myRole = fields.String(required=True)
    myParticipantId = fields.String(required=True)


class ParticipantSchema(Strict):
    participantId = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["USER", "GUEST"]))
    userId = fields.String()
    displayName = fields.String(required=True)
    role = fields.String(required=True)
    claimedAt = fields.String()


class ParticipantListSchema(Strict):
    items = fields.List(fields.Nested(ParticipantSchema), required=True)


class GuestCreateSchema(Strict):
    displayName = fields.String(required=True, validate=NAME)
    role = fields.String(load_default="MEMBER", validate=GUEST_ROLE)
