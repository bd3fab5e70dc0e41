"""Share links' request and reply bodies (camelCase here only)."""
from __future__ import annotations

from marshmallow import fields, validate, validates_schema, ValidationError

from app.api.schemas import DisplayName, Id, OmitNone, Strict

PIN = validate.Regexp(r"^[0-9]{4,8}$", error="4 to 8 digits.")
LINK_ROLE = validate.OneOf(["VIEWER", "MEMBER"])


class LinkCreateSchema(Strict):
    role = fields.String(required=True, validate=LINK_ROLE)
    participantId = Id(metadata={"description": "Binds the link to this guest."})
    pin = fields.String(validate=PIN)
    expiresAt = fields.AwareDateTime(metadata={
        "description": "A future time at most one year ahead (past → 400)."})
    label = fields.String(validate=validate.Length(min=1, max=100))


class LinkSchema(OmitNone, Strict):
    OMIT_NONE = ("participantId", "label", "expiresAt", "token", "byEmail")
    linkId = fields.String(required=True)
    token = fields.String(metadata={"description": "Only in the create reply (shown once)."})
    role = fields.String(required=True)
    participantId = fields.String()
    label = fields.String()
    pinRequired = fields.Boolean(required=True)
    expiresAt = fields.String()
    createdAt = fields.String(required=True)
    byEmail = fields.Boolean(metadata={
        "description": "true: made by an invitation by e-mail (bound to its guest, not "
                       "counted toward the 20 live links); revoking it withdraws the "
                       "invitation."})


class LinkListSchema(Strict):
    items = fields.List(fields.Nested(LinkSchema), required=True)


class LinkOpenSchema(Strict):
    token = fields.String(required=True, validate=validate.Length(min=1, max=200))
    pin = fields.String(validate=PIN)


class GuestSchema(Strict):
    participantId = fields.String(required=True)
    displayName = fields.String(required=True)


class LinkOpenedSchema(OmitNone, Strict):
    OMIT_NONE = ("groupId", "name", "currency", "role", "participantId", "guests")
    groupId = fields.String()
    name = fields.String()
    currency = fields.String()
    role = fields.String()
    pinRequired = fields.Boolean(required=True)
    participantId = fields.String()
    guests = fields.List(fields.Nested(GuestSchema))


class LinkSessionCreateSchema(LinkOpenSchema):
    participantId = Id()
    displayName = DisplayName()

    @validates_schema
    def _one_guest(self, data, **kwargs):
        if "participantId" in data and "displayName" in data:
            raise ValidationError("Send participantId or displayName, not both.",
                                  field_name="displayName")


class LinkSessionSchema(Strict):
    accessToken = fields.String(required=True, metadata={
        "description": "A bearer token (tss_…) acting as the guest for one hour."})
    expiresAt = fields.String(required=True)
    groupId = fields.String(required=True)
    participantId = fields.String(required=True)
    role = fields.String(required=True)


class LinkClaimSchema(Strict):
    sessionToken = fields.String(required=True, validate=validate.Length(min=1, max=1000))
