"""Developer API shapes: personal access tokens and daily usage."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from app.api.schemas import DisplayName, Strict, StrictInteger

SCOPE_CHOICES = ("groups:read", "expenses:write", "settlements:write", "profile:write")


class TokenCreateSchema(Strict):
    name = DisplayName(required=True)
    expiresInDays = StrictInteger(load_default=90, validate=validate.Range(min=1, max=365))
    scopes = fields.List(fields.String(validate=validate.OneOf(SCOPE_CHOICES)), required=True,
                         validate=validate.Length(min=1, max=len(SCOPE_CHOICES)))


class TokenSchema(Strict):
    tokenId = fields.String(required=True)
    name = fields.String(required=True)
    prefix = fields.String(allow_none=True, metadata={"description": "tsp_ and the id's first 8 characters"})
    scopes = fields.List(fields.String(), required=True)
    createdAt = fields.String(required=True)
    expiresAt = fields.String(required=True)
    revokedAt = fields.String(allow_none=True)
    lastUsedAt = fields.String(allow_none=True, metadata={"description": "Updated at most once a minute"})
    status = fields.String(required=True, validate=validate.OneOf(("ACTIVE", "EXPIRED", "REVOKED")))


class TokenCreatedSchema(TokenSchema):
    # Absent from an idempotent replay: the secret is never stored, not even for replays.
    token = fields.String(metadata={
        "description": "tsp_<tokenId>_<secret>: shown only in this reply, store it now. "
                       "A replay of the request (same Idempotency-Key and body) answers the "
                       "same status with the token's metadata and without `token`."})


class TokenListSchema(Strict):
    items = fields.List(fields.Nested(TokenSchema), required=True)
    nextCursor = fields.String(allow_none=True, required=True)


class UsageArgsSchema(Strict):
    from_ = fields.Date(data_key="from", load_default=None)
    to = fields.Date(load_default=None)

    @validates_schema
    def _ordered(self, data, **kwargs):
        if data.get("from_") and data.get("to") and data["from_"] > data["to"]:
            raise ValidationError("Must not be after `to`.", field_name="from")


class UsageRowSchema(Strict):
    day = fields.String(required=True)
    tokenId = fields.String(required=True)
    name = fields.String(allow_none=True)
    requests = fields.Integer(required=True)
    creates = fields.Integer(required=True)
    errors = fields.Integer(required=True)


class UsageSchema(Strict):
    items = fields.List(fields.Nested(UsageRowSchema), required=True)
