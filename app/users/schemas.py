"""Users: profile, identities, admin list."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from app.limits import DEFAULT_LOCALE as DEFAULT, LOCALES as SUPPORTED
from app.api.schemas import (CURRENCY, DerivedBoolean, DisplayName, PageArgsSchema, Strict,
                             StrictBoolean, page_schema)


class ProfileSchema(Strict):
    """Dumps a Profile row."""

    userId = fields.String(required=True, attribute="UserId")
    email = fields.String(required=True, attribute="Email")
    displayName = fields.String(required=True, attribute="DisplayName")
    handle = fields.String(allow_none=True, attribute="Handle")
    discoverable = DerivedBoolean(lambda row: bool(row.Discoverable), required=True)
    defaultCurrency = fields.String(allow_none=True, attribute="DefaultCurrency")
    locale = fields.Function(lambda row: row.Locale or DEFAULT, required=True, metadata={
        "type": "string", "enum": list(SUPPORTED),
        "description": "The language every text written for this user is in (GET /locales)"})
    createdAt = fields.String(allow_none=True, attribute="CreatedAt")


class AccountDeletionSchema(Strict):
    """202 of DELETE /users/me: the account is gone for every request; the rest is swept
    in the background."""

    status = fields.String(required=True, validate=validate.OneOf(["DELETING"]))


class AdminUserSchema(ProfileSchema):
    isTestAccount = DerivedBoolean(lambda row: bool(row.IsTestAccount), required=True)


class ProfilePatchSchema(Strict):
    displayName = DisplayName()
    defaultCurrency = fields.String(validate=CURRENCY)
    locale = fields.String(validate=validate.OneOf(list(SUPPORTED)), metadata={
        "description": "One of the tags GET /locales lists"})
    OPENAPI_EXTRA = {"minProperties": 1}  # what _something_to_change enforces

    @validates_schema
    def _something_to_change(self, data, **kwargs):
        if not data:
            raise ValidationError("Send at least one field to change.", "_schema")


class LocaleSchema(Strict):
    tag = fields.String(required=True, metadata={"description": "A BCP 47 tag, e.g. pt-BR"})
    name = fields.String(required=True, metadata={"description": "The language's own name"})


class LocalesSchema(Strict):
    """GET /locales: the languages texts can be written in."""

    default = fields.String(required=True)
    items = fields.List(fields.Nested(LocaleSchema), required=True)


class IdentitySchema(Strict):
    """Dumps an Identity row (one without Verified predates hand linking: verified)."""

    provider = fields.String(required=True, attribute="Provider")
    subject = fields.String(required=True, attribute="Subject")
    createdAt = fields.String(attribute="CreatedAt")
    verified = DerivedBoolean(lambda row: row.Verified is not False, required=True, metadata={
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
    displayName = DisplayName()
    admin = StrictBoolean(load_default=False)


class DevTokenSchema(Strict):
    accessToken = fields.String(required=True)
    userId = fields.String(required=True)


class JwksSchema(Strict):
    keys = fields.List(fields.Dict(), required=True)


class HealthSchema(Strict):
    status = fields.String(required=True)
