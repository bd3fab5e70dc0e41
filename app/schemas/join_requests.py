"""Join requests and their decisions."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from app.schemas.common import Id, OmitNone, Strict, page_schema
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
    OPENAPI_EXTRA = {"description": "A request to join by invite code. TAKEOVER names the guest "
                                    "to claim in targetParticipantId; NEW names none. Either "
                                    "mismatch is refused with 400 VALIDATION_ERROR.",
                     "oneOf": [
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


class JoinRequestSchema(OmitNone, Strict):
    """Dumps a JoinRequest row; attributes the row lacks are omitted, never null."""

    OMIT_NONE = ("requestId", "groupId", "applicantUserId", "applicantDisplayName", "mode",
                 "targetParticipantId", "proposedRole", "finalRole", "status", "message",
                 "createdAt", "decidedAt", "participantId")
    requestId = fields.String(required=True, attribute="RequestId")
    groupId = fields.String(required=True, attribute="GroupId")
    applicantUserId = fields.String(required=True, attribute="ApplicantUserId")
    applicantDisplayName = fields.String(attribute="ApplicantDisplayName")
    mode = fields.String(required=True, validate=validate.OneOf(["NEW", "TAKEOVER"]),
                         attribute="Mode")
    targetParticipantId = fields.String(attribute="TargetParticipantId")
    proposedRole = fields.String(required=True, attribute="ProposedRole")
    finalRole = fields.String(attribute="FinalRole")
    status = fields.String(required=True, validate=validate.OneOf(
        ["PENDING", "APPROVED", "DENIED", "CANCELLED"]), attribute="Status")
    message = fields.String(attribute="Message")
    createdAt = fields.String(required=True, attribute="CreatedAt")
    decidedAt = fields.String(attribute="DecidedAt")
    participantId = fields.String(metadata={"description": "Set once approved."},
                                  attribute="ParticipantId")


JoinRequestPageSchema = page_schema(JoinRequestSchema, "JoinRequestPage")


class ApproveSchema(Strict):
    role = fields.String(required=True, validate=GUEST_ROLE, metadata={
        "description": "MEMBER or VIEWER; OWNER is never granted through a join request."})


class ApprovalSchema(Strict):
    request = fields.Nested(JoinRequestSchema, required=True)
    participant = fields.Nested(ParticipantSchema, required=True)
