"""Join requests and their decisions."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from app.schemas.common import Id, Strict, page_schema
from app.schemas.groups import GUEST_ROLE, ParticipantSchema


class JoinRequestCreateSchema(Strict):
    code = fields.String(required=True, validate=validate.Length(min=1, max=200))
    mode = fields.String(required=True, validate=validate.OneOf(["NEW", "TAKEOVER"]))
    targetParticipantId = Id(metadata={"description": "Required for TAKEOVER: the guest "
                                                      "to claim."})
    proposedRole = fields.String(validate=GUEST_ROLE, metadata={
        "description": "MEMBER or VIEWER (never OWNER); defaults to the invite's role."})
    message = fields.String(validate=validate.Length(max=500))

    # What _target_matches_mode enforces: TAKEOVER names a guest, NEW names none.
    OPENAPI_EXTRA = {"oneOf": [
        {"properties": {"mode": {"enum": ["TAKEOVER"]}}, "required": ["targetParticipantId"]},
        {"properties": {"mode": {"enum": ["NEW"]}}, "not": {"required": ["targetParticipantId"]}},
    ]}

    @validates_schema
    def _target_matches_mode(self, data, **kwargs):
        has_target = data.get("targetParticipantId") is not None
        if data.get("mode") == "TAKEOVER" and not has_target:
            raise ValidationError("Required for a TAKEOVER request.", "targetParticipantId")
        if data.get("mode") == "NEW" and has_target:
            raise ValidationError("Only a TAKEOVER request names a participant.",
                                  "targetParticipantId")


class JoinRequestSchema(Strict):
    requestId = fields.String(required=True)
    groupId = fields.String(required=True)
    applicantUserId = fields.String(required=True)
    applicantDisplayName = fields.String()
    mode = fields.String(required=True, validate=validate.OneOf(["NEW", "TAKEOVER"]))
    targetParticipantId = fields.String()
    proposedRole = fields.String(required=True)
    finalRole = fields.String()
    status = fields.String(required=True, validate=validate.OneOf(
        ["PENDING", "APPROVED", "DENIED", "CANCELLED"]))
    message = fields.String()
    createdAt = fields.String(required=True)
    decidedAt = fields.String()
    participantId = fields.String(metadata={"description": "Set once approved."})


JoinRequestPageSchema = page_schema(JoinRequestSchema, "JoinRequestPage")


class ApproveSchema(Strict):
    role = fields.String(required=True, validate=GUEST_ROLE, metadata={
        "description": "MEMBER or VIEWER; OWNER is never granted through a join request."})


class ApprovalSchema(Strict):
    request = fields.Nested(JoinRequestSchema, required=True)
    participant = fields.Nested(ParticipantSchema, required=True)
