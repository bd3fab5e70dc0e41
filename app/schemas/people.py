"""People: handles, directory search, friends and direct invitations."""
from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.common import (DerivedBoolean, DerivedString, Id, OmitNone, Strict, StrictBoolean,
                                page_schema)
from app.schemas.groups import GUEST_ROLE, ParticipantSchema


class HandleSchema(Strict):
    handle = fields.String(required=True, validate=validate.Regexp(
        r"^[A-Za-z0-9_]{3,30}$", error="Must be 3-30 characters of a-z, 0-9 and _."),
        metadata={"description": "Stored lowercase; reserved words are refused (400)."})
    discoverable = StrictBoolean(required=True, metadata={
        "description": "Whether search may find you by name and handle."})


class HandleReplySchema(Strict):
    """Dumps the caller's Profile row."""

    userId = fields.String(required=True, attribute="UserId")
    displayName = fields.String(required=True, attribute="DisplayName")
    handle = fields.String(required=True, attribute="Handle")
    discoverable = DerivedBoolean(lambda row: bool(row.Discoverable), required=True)


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
    """Dumps the caller's Friendship row; a listed one (people.friends.Listed) adds the other
    side's current name and handle, which a bare row leaves out."""

    userId = fields.String(required=True, attribute="friend_id")
    status = fields.String(required=True, validate=validate.OneOf(
        ["OUTGOING", "INCOMING", "ACCEPTED"]), attribute="Status")
    since = DerivedString(lambda row: row.UpdatedAt or row.CreatedAt, required=True)
    displayName = fields.String(allow_none=True, attribute="display_name")
    handle = fields.String(allow_none=True, attribute="handle")


FriendPageSchema = page_schema(FriendSchema, "FriendPage")


class InvitationCreateSchema(Strict):
    userId = Id(required=True)
    role = fields.String(required=True, validate=GUEST_ROLE)
    participantId = Id(metadata={"description": "An unreserved guest to reserve for the "
                                                "invitee; without it a new guest is added "
                                                "(or one kept from an earlier invitation)."})


class InvitationSchema(OmitNone, Strict):
    """Dumps a GroupInvitation row; attributes the row lacks are omitted, never null."""

    OMIT_NONE = ("groupId", "groupName", "userId", "role", "participantId", "invitedBy",
                 "createdAt", "expiresAt")
    groupId = fields.String(required=True, attribute="GroupId")
    groupName = fields.String(attribute="GroupName")
    userId = fields.String(required=True, metadata={"description": "The invitee."},
                           attribute="InviteeUserId")
    role = fields.String(required=True, attribute="Role")
    participantId = fields.String(metadata={"description": "The reserved guest."},
                                  attribute="ParticipantId")
    invitedBy = fields.String(required=True, attribute="InvitedBy")
    createdAt = fields.String(required=True, attribute="CreatedAt")
    expiresAt = fields.String(required=True, attribute="ExpiresAt")


InvitationPageSchema = page_schema(InvitationSchema, "InvitationPage")


class AcceptedInvitationSchema(Strict):
    groupId = fields.String(required=True)
    participant = fields.Nested(ParticipantSchema, required=True)

