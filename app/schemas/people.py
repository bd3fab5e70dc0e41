"""People: handles, directory search, friends and direct invitations."""
from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.common import Id, Strict, StrictBoolean, page_schema
from app.schemas.groups import GUEST_ROLE, ParticipantSchema


class HandleSchema(Strict):
    handle = fields.String(required=True, validate=validate.Regexp(
        r"^[A-Za-z0-9_]{3,30}$", error="Must be 3-30 characters of a-z, 0-9 and _."),
        metadata={"description": "Stored lowercase; reserved words are refused (400)."})
    discoverable = StrictBoolean(required=True, metadata={
        "description": "Whether search may find you by name and handle."})


class HandleReplySchema(Strict):
    userId = fields.String(required=True)
    displayName = fields.String(required=True)
    handle = fields.String(required=True)
    discoverable = fields.Boolean(required=True)


class SearchArgsSchema(Strict):
    q = fields.String(required=True, validate=validate.Length(min=2, max=100))
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=25))


class PersonSchema(Strict):
    userId = fields.String(required=True)
    displayName = fields.String(required=True)
    handle = fields.String(allow_none=True)


class PersonListSchema(Strict):
    items = fields.List(fields.Nested(PersonSchema), required=True)


class FriendRequestSchema(Strict):
    userId = Id(required=True)


class FriendSchema(Strict):
    userId = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(
        ["OUTGOING", "INCOMING", "ACCEPTED"]))
    since = fields.String(required=True)
    displayName = fields.String(allow_none=True)
    handle = fields.String(allow_none=True)


FriendPageSchema = page_schema(FriendSchema, "FriendPage")


class InvitationCreateSchema(Strict):
    userId = Id(required=True)
    role = fields.String(required=True, validate=GUEST_ROLE)
    participantId = Id(metadata={"description": "An unreserved guest to reserve for the "
                                                "invitee; without it a new guest is added "
                                                "(or one kept from an earlier invitation)."})


class InvitationSchema(Strict):
    groupId = fields.String(required=True)
    groupName = fields.String()
    userId = fields.String(required=True, metadata={"description": "The invitee."})
    role = fields.String(required=True)
    participantId = fields.String(metadata={"description": "The reserved guest."})
    invitedBy = fields.String(required=True)
    createdAt = fields.String(required=True)
    expiresAt = fields.String(required=True)


InvitationPageSchema = page_schema(InvitationSchema, "InvitationPage")


class AcceptedInvitationSchema(Strict):
    groupId = fields.String(required=True)
    participant = fields.Nested(ParticipantSchema, required=True)

