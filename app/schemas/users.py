"""Users: profile, identities, admin list."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from app.schemas.common import CURRENCY, PageArgsSchema, Strict, StrictBoolean, page_schema


class ProfileSchema(Strict):
    userId = fields.String(required=True)
    email = fields.String(required=True)
    displayName = fields.String(required=True)
    handle = fields.String(allow_none=True)
    discoverable = fields.Boolean(required=True)
    defaultCurrency = fields.String(allow_none=True)
    createdAt = fields.String(allow_none=True)


class AdminUserSchema(ProfileSchema):
    isTestAccount = fields.Boolean(required=True)


class ProfilePatchSchema(Strict):
    displayName = fields.String(validate=[validate.Length(min=1, max=100),
                                          validate.Regexp(r"\S", error="Must not be blank.")])
    defaultCurrency = fields.String(validate=CURRENCY)
    OPENAPI_EXTRA = {"minProperties": 1}  # what _something_to_change enforces

    @validates_schema
    def _something_to_change(self, data, **kwargs):
        if not data:
            raise ValidationError("Send at least one field to change.", "_schema")


class IdentitySchema(Strict):
    provider = fields.String(required=True)
    subject = fields.String(required=True)
    createdAt = fields.String()
    verified = fields.Boolean(required=True, metadata={
        "description": "false for identities linked by hand: they never grant sign-in"})


class IdentityLinkSchema(Strict):
    provider = fields.String(required=True, validate=validate.Regexp(
        r"^[a-z][a-z0-9_-]{1,31}$", error="Lowercase provider name, e.g. google."))
    subject = fields.String(required=True, validate=validate.Length(min=1, max=256))


class IdentityListSchema(Strict):
    items = fields.List(fields.Nested(IdentitySchema), required=True)


class AdminUsersArgsSchema(PageArgsSchema):
    includeTestAccounts = fields.Boolean(load_default=False)


AdminUserPageSchema = page_schema(AdminUserSchema, "AdminUserPage")


class DevTokenRequestSchema(Strict):
    email = fields.Email(required=True, validate=validate.Length(max=254))
    displayName = fields.String(validate=validate.Length(min=1, max=100))
    admin = StrictBoolean(load_default=False)


class DevTokenSchema(Strict):
    accessToken = fields.String(required=True)
    userId = fields.String(required=True)


class JwksSchema(Strict):
    keys = fields.List(fields.Dict(), required=True)


class HealthSchema(Strict):
    status = fields.String(required=True)
