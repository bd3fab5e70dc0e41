"""Groups and participants."""
from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.common import CURRENCY, Id, Strict, page_schema

NAME = [validate.Length(min=1, max=100), validate.Regexp(r"\S", error="Must not be blank.")]
GUEST_ROLE = validate.OneOf(["MEMBER", "VIEWER"])
ROLES = ["OWNER", "MEMBER", "VIEWER"]


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


class GroupPatchSchema(Strict):
    name = fields.String(validate=NAME)
    currency = fields.String(validate=CURRENCY, metadata={
        "description": "Only while the group has no expense or settlement "
                       "(otherwise 409 CURRENCY_LOCKED)."})


class ParticipantPatchSchema(Strict):
    role = fields.String(validate=validate.OneOf(ROLES), metadata={
        "description": "OWNER only for USER participants; a guest may be MEMBER or VIEWER."})
    displayName = fields.String(validate=NAME, metadata={"description": "Guests only."})


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


class InviteSchema(Strict):
    enabled = fields.Boolean(required=True)
    code = fields.String(required=True)
    defaultRole = fields.String(required=True, validate=GUEST_ROLE)


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


class HomeGroupSchema(Strict):
    groupId = fields.String(required=True)
    name = fields.String(required=True)
    currency = fields.String(required=True)
    myRole = fields.String(required=True)
    myParticipantId = fields.String(required=True)
    myNet = fields.Integer(required=True, metadata={
        "description": "Minor units, positive = owed money; folded exactly as "
                       "GET /groups/{groupId}/balances folds it."})


HomeGroupPageSchema = page_schema(HomeGroupSchema, "HomeGroupPage")
