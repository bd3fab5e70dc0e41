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


# One switch per event type, so the document names every key a client may send.
TypesSchema = Strict.from_dict({name: StrictBoolean() for name in EVENT_TYPES},
                               name="NotificationTypesSchema")


class PreferencesSchema(Strict):
    types = fields.Nested(TypesSchema, required=True)
    mutedGroupIds = fields.List(Id(), required=True)


class PreferencesPatchSchema(Strict):
    types = fields.Nested(TypesSchema)
    mutedGroupIds = fields.List(Id(), validate=validate.Length(max=1000))
    OPENAPI_EXTRA = {"minProperties": 1}

    @ma.validates_schema
    def something(self, data, **kwargs):
        if "types" not in data and "mutedGroupIds" not in data:
            raise ma.ValidationError("Send types, mutedGroupIds or both.", field_name="types")


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
