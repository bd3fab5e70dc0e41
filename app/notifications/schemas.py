"""Notifications: history, read marks, preferences, devices."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from app.api.schemas import Id, Schema, Strict, StrictBoolean
from models.notifications import EVENT_TYPES  # the one list the outbox enforces


class NotificationSchema(Strict):
    """Dumps a history Entry (the row, its id and when it counts as read)."""

    notificationId = fields.String(required=True, metadata={"description": "Opaque id"},
                                   attribute="notification_id")
    type = fields.String(required=True, validate=validate.OneOf(EVENT_TYPES), attribute="Type")
    title = fields.String(required=True, attribute="Title")
    body = fields.String(required=True, attribute="Body")
    groupId = fields.String(allow_none=True, attribute="GroupId")
    resourceId = fields.String(allow_none=True, attribute="ResourceId")
    createdAt = fields.String(required=True, attribute="CreatedAt")
    readAt = fields.String(allow_none=True, attribute="read_at")


class NotificationPageSchema(Schema):
    """A page of history, newest first, with the caller's unread count."""

    items = fields.List(fields.Nested(NotificationSchema), required=True)
    nextCursor = fields.String(allow_none=True, required=True)
    unreadCount = fields.Integer(required=True)


class MarkReadSchema(Strict):
    """``{ids: [...]}`` or ``{all: true}``."""

    ids = fields.List(fields.String(validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,600}$")),
                      validate=validate.Length(min=1, max=100),
                      metadata={"description": "notificationId values; ids that name no "
                                               "notification of the caller are skipped"})
    all = StrictBoolean()
    OPENAPI_EXTRA = {"description": "Exactly one of ids (those notifications) or all: true "
                                    "(every one); anything else is a 400 VALIDATION_ERROR.",
                     "oneOf": [
        {"required": ["ids"], "not": {"required": ["all"]}},
        {"required": ["all"], "not": {"required": ["ids"]},
         "properties": {"all": {"type": "boolean", "enum": [True]}}}]}

    @ma.validates_schema
    def one_of(self, data, **kwargs):
        if bool(data.get("ids")) == bool(data.get("all")):
            raise ma.ValidationError("Send either ids or all: true.", field_name="ids")


class UnreadSchema(Strict):
    unreadCount = fields.Integer(required=True)


DIGESTS = ("NONE", "DAILY", "WEEKLY")


class ChannelsSchema(Strict):
    """One type's channels."""

    push = StrictBoolean(required=True, metadata={"description": "Push to the devices"})
    email = StrictBoolean(required=True, metadata={"description": "E-mail (off by default)"})


class ChannelsPatchSchema(Strict):
    push = StrictBoolean(metadata={"description": "Push to the devices"})
    email = StrictBoolean(metadata={"description": "E-mail to the verified address"})


class ChannelSwitch(fields.Field):
    """A type's channels to set: ``{push?, email?}``, or the old boolean form (push only)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            return {"push": value}
        if isinstance(value, dict):
            if not value:
                raise ma.ValidationError("Name push, email or both.")
            return ChannelsPatchSchema().load(value)
        raise ma.ValidationError("Send {push, email} or a boolean (push only).")


_SWITCH_DOC = {"description": "{push?, email?}, or a boolean: the old form, push only",
               "oneOf": [{"type": "boolean"},
                         {"type": "object", "additionalProperties": False, "minProperties": 1,
                          "properties": {"push": {"type": "boolean"},
                                         "email": {"type": "boolean"}}}]}

# One entry per event type, so the document names every key a client may send.
TypesSchema = Strict.from_dict({name: fields.Nested(ChannelsSchema, required=True)
                                for name in EVENT_TYPES}, name="NotificationTypesSchema")
TypesPatchSchema = Strict.from_dict({name: ChannelSwitch(metadata=_SWITCH_DOC)
                                     for name in EVENT_TYPES},
                                    name="NotificationTypesPatchSchema")


class PreferencesSchema(Strict):
    types = fields.Nested(TypesSchema, required=True)
    mutedGroupIds = fields.List(Id(), required=True)
    digest = fields.String(required=True, validate=validate.OneOf(DIGESTS), metadata={
        "description": "A summary e-mail per period of the groups' changes (NONE: none)"})
    emailVerified = fields.Boolean(required=True, metadata={
        "description": "The identity provider vouched for the account's address; no e-mail "
                       "goes to an address without it"})


class PreferencesPatchSchema(Strict):
    types = fields.Nested(TypesPatchSchema)
    mutedGroupIds = fields.List(Id(), validate=validate.Length(max=1000))
    digest = fields.String(validate=validate.OneOf(DIGESTS))
    OPENAPI_EXTRA = {"minProperties": 1}

    @ma.validates_schema
    def something(self, data, **kwargs):
        if not {"types", "mutedGroupIds", "digest"} & set(data):
            raise ma.ValidationError("Send types, mutedGroupIds, digest or some of them.",
                                     field_name="types")


class UnsubscribeArgsSchema(Strict):
    token = fields.String(required=True, validate=validate.Length(min=1, max=2000),
                          metadata={"description": "The token of the e-mail's link"})


class UnsubscribeSchema(Strict):
    unsubscribed = fields.Boolean(required=True, metadata={
        "description": "True: that type's e-mails are off for the recipient (push unchanged)"})


class DeviceCreateSchema(Strict):
    platform = fields.String(required=True, validate=validate.OneOf(["IOS", "ANDROID", "WEB"]))
    token = fields.String(required=True, validate=validate.Length(min=1, max=4096),
                          metadata={"description": "APNs/FCM token, or a Web Push "
                                                   "PushSubscription as a JSON string"})


class DeviceSchema(Strict):
    deviceId = Id(required=True)


class WebPushKeySchema(Strict):
    publicKey = fields.String(required=True, metadata={
        "description": "base64url of the uncompressed P-256 point (VAPID, RFC 8292): the "
                       "applicationServerKey for PushManager.subscribe()."})
