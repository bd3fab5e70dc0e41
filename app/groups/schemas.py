"""Groups: the marshmallow schemas of its routes (camelCase only here)."""
from __future__ import annotations

from marshmallow import fields, validate, ValidationError, validates_schema
from app.api.schemas import (CURRENCY, DerivedBoolean, DerivedInteger, DisplayName, Id, OmitNone,
                             PageArgsSchema, Strict, page_schema)


# ---------------------------------------------------------------- groups
# Groups and participants.

GUEST_ROLE = validate.OneOf(["MEMBER", "VIEWER"])
ROLES = ["OWNER", "MEMBER", "VIEWER"]


class GroupCreateSchema(Strict):
    name = DisplayName(required=True)
    currency = fields.String(required=True, validate=CURRENCY)


class GroupSchema(Strict):
    """Dumps the caller's Access: the group head plus their role and participant."""

    groupId = fields.String(required=True, attribute="group.GroupId")
    name = fields.String(required=True, attribute="group.Name")
    currency = fields.String(required=True, attribute="group.Currency")
    createdBy = fields.String(required=True, attribute="group.CreatedBy")
    createdAt = fields.String(allow_none=True, attribute="group.CreatedAt")
    updatedAt = fields.String(allow_none=True, attribute="group.UpdatedAt")
    ownerCount = DerivedInteger(lambda access: int(access.group.OwnerCount or 0), required=True)
    myRole = fields.String(required=True, attribute="role")
    myParticipantId = fields.String(required=True, attribute="participant_id")
    archived = DerivedBoolean(lambda access: access.group.archived, required=True, metadata={
        "description": "An archived group is read-only: every write is 409 GROUP_ARCHIVED "
                       "until an owner unarchives it."})


class ArchivalSchema(GroupSchema):
    """The group after POST .../archive or .../unarchive."""

    unsettled = fields.Boolean(required=True, metadata={
        "description": "Some participant's net is not zero (archiving is allowed anyway)."})


class HomeArgsSchema(PageArgsSchema):
    archived = fields.Boolean(load_default=False, metadata={
        "description": "true: only the archived groups; otherwise only the others."})


class ParticipantSchema(OmitNone, Strict):
    """Dumps a Participant row; a guest has no userId and claimedAt (omitted, not null)."""

    OMIT_NONE = ("userId", "claimedAt")
    participantId = fields.String(required=True, attribute="ParticipantId")
    type = fields.String(required=True, validate=validate.OneOf(["USER", "GUEST"]),
                         attribute="Type")
    userId = fields.String(attribute="UserId")
    displayName = fields.String(required=True, attribute="DisplayName")
    role = fields.String(required=True, attribute="Role")
    claimedAt = fields.String(attribute="ClaimedAt")


class ParticipantListSchema(Strict):
    items = fields.List(fields.Nested(ParticipantSchema), required=True)


class GuestCreateSchema(Strict):
    displayName = DisplayName(required=True)
    role = fields.String(load_default="MEMBER", validate=GUEST_ROLE)


class GroupPatchSchema(Strict):
    name = DisplayName()
    currency = fields.String(validate=CURRENCY, metadata={
        "description": "Only while the group has no expense or settlement "
                       "(otherwise 409 CURRENCY_LOCKED)."})


class ParticipantPatchSchema(Strict):
    role = fields.String(validate=validate.OneOf(ROLES), metadata={
        "description": "OWNER only for USER participants; a guest may be MEMBER or VIEWER."})
    displayName = DisplayName(metadata={"description": "Guests only."})


class ParticipantTransferSchema(Strict):
    targetParticipantId = Id(required=True, metadata={
        "description": "Who receives every reference; must exist in the group and not be "
                       "mid-transfer itself."})


class ParticipantTransferResultSchema(Strict):
    sourceParticipantId = fields.String(required=True)
    targetParticipantId = fields.String(required=True)
    sourceRemoved = fields.Boolean(required=True, metadata={
        "description": "true: the source was a guest and is gone; false: a user, unlocked "
                       "and still a participant (now without expenses)."})
    expenses = fields.Integer(required=True, metadata={
        "description": "Expenses this call rewrote (a resumed call counts only its part)."})
    settlements = fields.Integer(required=True)
    settlementsDeleted = fields.Integer(required=True, metadata={
        "description": "Settlements between source and target: a payment to oneself once "
                       "merged, deleted with their balance effect."})
    recurring = fields.Integer(required=True)
    conversions = fields.Integer(required=True, metadata={
        "description": "Conversions whose kept and converted nets moved to the target."})


class InviteSchema(Strict):
    """Dumps the group's Invite row."""

    enabled = DerivedBoolean(lambda row: bool(row.Enabled), required=True)
    code = fields.String(required=True, attribute="Code")
    defaultRole = fields.String(required=True, validate=GUEST_ROLE, attribute="DefaultRole")


class InvitePatchSchema(Strict):
    enabled = fields.Boolean()
    defaultRole = fields.String(validate=GUEST_ROLE)


class InvitePreviewArgsSchema(Strict):
    code = fields.String(required=True, validate=validate.Length(min=1, max=200))


class ClaimableGuestSchema(Strict):
    participantId = fields.String(required=True)
    displayName = fields.String(required=True)


class InvitePreviewSchema(Strict):
    groupId = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(required=True)
    participantCount = fields.Integer(required=True)
    claimableGuests = fields.List(fields.Nested(ClaimableGuestSchema), required=True)


class OtherNetSchema(Strict):
    currency = fields.String(required=True)
    net = fields.Integer(required=True, metadata={"description": "Minor units of currency"})


class HomeGroupSchema(Strict):
    groupId = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(required=True)
    myRole = fields.String(required=True)
    myParticipantId = fields.String(required=True)
    myNet = fields.Integer(required=True, metadata={
        "description": "Minor units, positive = owed money; folded exactly as "
                       "GET /groups/{groupId}/balances folds it."})
    revision = fields.Integer(required=True, metadata={
        "description": "The group's revision (GET /groups/{groupId}/changes): it moved since "
                       "the client last synced exactly when this differs from what it holds."})
    myOtherNets = fields.List(fields.Nested(OtherNetSchema), required=True, metadata={
        "description": "The caller's net in each kept currency the balances route shows "
                       "under otherCurrencies"})
    archived = fields.Boolean(required=True, metadata={
        "description": "The group is archived (read-only); listed only with ?archived=true."})


HomeGroupPageSchema = page_schema(HomeGroupSchema, "HomeGroupPage")


# ---------------------------------------------------------------- join_requests
# Join requests and their decisions.

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
