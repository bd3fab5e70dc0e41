"""Groups: the marshmallow schemas of its routes (camelCase only here)."""
from __future__ import annotations

from marshmallow import fields, validate, ValidationError, validates_schema
from app.api.schemas import (CURRENCY, DerivedBoolean, DerivedInteger, DerivedNested,
                             DerivedString, DisplayName, Id, OmitNone, PageArgsSchema, Strict,
                             StrictBoolean,
                             StrictInteger, page_schema)
from app.limits import MAX_HOUSEHOLD, MAX_PARTICIPANTS
from app.money.splits import DEFAULT_SPLIT_MODES, LIST_ORDER, MAX_AMOUNT, ROUNDING_MODES


# ---------------------------------------------------------------- groups
# Groups and participants.

GUEST_ROLE = validate.OneOf(["MEMBER", "VIEWER"])

ROLES = ["OWNER", "MEMBER", "VIEWER"]


class GroupCreateSchema(Strict):
    name = DisplayName(required=True)
    currency = fields.String(required=True, validate=CURRENCY)


class DefaultShareSchema(Strict):
    participantId = Id(required=True)
    value = StrictInteger(validate=validate.Range(min=0, max=MAX_AMOUNT), allow_none=True,
                          metadata={"description": "Ignored for EQUAL; a weight >= 1 for "
                                                   "SHARES; basis points for PERCENT"})


class DefaultSplitSchema(Strict):
    """How a create that sends an amount and payments but no items, splitMode or splits
    shares it; participants added later take no share until named here."""

    splitMode = fields.String(required=True, validate=validate.OneOf(DEFAULT_SPLIT_MODES))
    splits = fields.List(fields.Nested(DefaultShareSchema), required=True,
                         validate=validate.Length(min=1, max=MAX_PARTICIPANTS))


def _default_split(access):
    default = access.group.DefaultSplit
    if default is None:
        return None
    return {"splitMode": default.SplitMode,
            "splits": [{"participantId": s.ParticipantId,
                        "value": None if s.Value is None else int(s.Value)}
                       for s in default.Splits]}


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
    defaultSplit = DerivedNested(_default_split, DefaultSplitSchema, allow_none=True,
                                 required=True, metadata={
                                     "description": "The group's default split; null when "
                                                    "none is set"})
    simplifyDebts = DerivedBoolean(
        lambda access: access.group.SimplifyDebts is not False, required=True, metadata={
            "description": "true: balances and /users/me/people show the simplified plan by "
                           "default; false: the pairwise debts (?view= overrides)"})
    rounding = DerivedString(
        lambda access: access.group.Rounding or LIST_ORDER, required=True, metadata={
            "enum": list(ROUNDING_MODES),
            "description": "How an item's leftover minor units are handed out"})
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

    OMIT_NONE = ("userId", "claimedAt", "createdAt")
    participantId = fields.String(required=True, attribute="ParticipantId")
    type = fields.String(required=True, validate=validate.OneOf(["USER", "GUEST"]),
                         attribute="Type")
    userId = fields.String(attribute="UserId")
    displayName = fields.String(required=True, attribute="DisplayName")
    role = fields.String(required=True, attribute="Role")
    claimedAt = fields.String(attribute="ClaimedAt")
    createdAt = fields.String(attribute="CreatedAt", metadata={
        "description": "When the participant was added (with claimedAt for users: who "
                       "entered the group first, a household representative's tie-break)"})
    household = fields.String(required=True, allow_none=True, attribute="Household", metadata={
        "description": "The household this participant settles up with (null: none); "
                       "labels match case-insensitively"})


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
    defaultSplit = fields.Nested(DefaultSplitSchema, allow_none=True, metadata={
        "description": "Sets the group's default split (EQUAL, SHARES or PERCENT over named "
                       "participants; an unknown participant is 400); null clears it"})
    rounding = fields.String(validate=validate.OneOf(ROUNDING_MODES), metadata={
        "description": "LIST_ORDER (default): an item's leftover minor units go to its "
                       "splits in list order; FAIR: to those rounded up least so far (each "
                       "participant's cumulative rounding, shown in balances)"})
    simplifyDebts = StrictBoolean(metadata={
        "description": "The default view of balances and /users/me/people: true (the "
                       "default) the simplified plan, false the pairwise debts"})


class ParticipantPatchSchema(Strict):
    role = fields.String(validate=validate.OneOf(ROLES), metadata={
        "description": "OWNER only for USER participants; a guest may be MEMBER or VIEWER."})
    displayName = DisplayName(metadata={"description": "Guests only."})
    household = fields.String(allow_none=True, validate=[
        validate.Length(min=1, max=MAX_HOUSEHOLD),
        validate.Regexp(r"\s*\S", error="Must not be blank.")], metadata={
        "description": "Trimmed; labels match case-insensitively within the group (the "
                       "household keeps the spelling its first member set); null clears. The "
                       "participant may set their own, an owner anyone's.", "pattern": r"\S"})


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
