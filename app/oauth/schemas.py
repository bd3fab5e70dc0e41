"""MCP connector OAuth shapes. OAuth's own fields stay snake_case, as the RFCs spell them."""
from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from app.api.schemas import DisplayName, Schema, Strict

SCOPE_CHOICES = ("groups:read", "expenses:write", "settlements:write")
# What app.oauth.clients.valid_redirect_uri accepts, as a pattern a client can read
# (narrower: https on a DNS name whose last label starts with a letter, never an IP literal):
# printable ASCII, no "#" and no backslash (the service reads it strictly, by
# app.core.urls).
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_LAST_LABEL = r"[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_PORT = r"(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})"
REDIRECT_URI = (rf"^(https://({_LABEL}\.)*{_LAST_LABEL}"
                rf"|http://(localhost|127\.0\.0\.1|\[::1\]))(:{_PORT})?"
                r"([/?][!-\"$-\[\]-~]*)?$")


class ProtectedResourceSchema(Strict):
    resource = fields.String(required=True)
    authorization_servers = fields.List(fields.String(), required=True)
    scopes_supported = fields.List(fields.String(), required=True)
    bearer_methods_supported = fields.List(fields.String(), required=True)
    resource_name = fields.String()


class AuthorizationServerSchema(Strict):
    issuer = fields.String(required=True)
    authorization_endpoint = fields.String(required=True)
    token_endpoint = fields.String(required=True)
    registration_endpoint = fields.String(required=True)
    revocation_endpoint = fields.String(required=True)
    response_types_supported = fields.List(fields.String(), required=True)
    grant_types_supported = fields.List(fields.String(), required=True)
    code_challenge_methods_supported = fields.List(fields.String(), required=True)
    token_endpoint_auth_methods_supported = fields.List(fields.String(), required=True)
    revocation_endpoint_auth_methods_supported = fields.List(fields.String(), required=True)
    scopes_supported = fields.List(fields.String(), required=True)
    client_id_metadata_document_supported = fields.Boolean(required=True)
    authorization_response_iss_parameter_supported = fields.Boolean(required=True)


class ClientRegistrationSchema(Schema):
    """RFC 7591 client metadata. Metadata we do not use is accepted and ignored, as §2 says."""

    class Meta:
        unknown = ma.EXCLUDE

    redirect_uris = fields.List(
        fields.String(validate=[validate.Length(min=1, max=2000), validate.Regexp(REDIRECT_URI)]),
        required=True, validate=validate.Length(min=1, max=10))
    client_name = DisplayName()
    token_endpoint_auth_method = fields.String(validate=validate.OneOf(("none",)))
    grant_types = fields.List(fields.String(validate=validate.OneOf(
        ("authorization_code", "refresh_token"))), validate=validate.Length(max=2))
    response_types = fields.List(fields.String(validate=validate.OneOf(("code",))),
                                 validate=validate.Length(max=1))
    software_id = fields.String(validate=validate.Length(min=1, max=200))
    software_version = fields.String(validate=validate.Length(min=1, max=200))


class ClientRegisteredSchema(Strict):
    client_id = fields.String(required=True)
    client_id_issued_at = fields.Integer(required=True)
    client_name = fields.String(required=True)
    redirect_uris = fields.List(fields.String(), required=True)
    grant_types = fields.List(fields.String(), required=True)
    response_types = fields.List(fields.String(), required=True)
    token_endpoint_auth_method = fields.String(required=True)
    software_id = fields.String()
    software_version = fields.String()


class OAuthTokenFormSchema(Schema):
    """application/x-www-form-urlencoded (documentation: the view reads the form itself, so
    every refusal is an RFC 6749 error)."""

    class Meta:
        unknown = ma.EXCLUDE

    grant_type = fields.String(required=True, validate=validate.OneOf(
        ("authorization_code", "refresh_token")))
    code = fields.String(validate=validate.Length(min=1),
                         metadata={"description": "authorization_code: the code, once"})
    code_verifier = fields.String(
        validate=[validate.Length(min=43, max=128), validate.Regexp(r"^[A-Za-z0-9._~-]+$")],
        metadata={"description": "authorization_code: the PKCE verifier (RFC 7636 §4.1)"})
    redirect_uri = fields.String(validate=validate.Length(min=1),
                                 metadata={"description": "authorization_code: the same URI"})
    client_id = fields.String(validate=validate.Length(min=1))
    refresh_token = fields.String(validate=validate.Length(min=1),
                                  metadata={"description": "refresh_token: rotates"})
    resource = fields.String(metadata={"description": "<base>/mcp (RFC 8707)"})
    scope = fields.String()
    OPENAPI_EXTRA = {"additionalProperties": {"type": "string"},
                     "description": "By grant_type: authorization_code needs code, "
                                    "code_verifier, redirect_uri and client_id; refresh_token "
                                    "needs refresh_token (RFC 6749 §4.1.3, §6).",
                     "oneOf": [
        {"properties": {"grant_type": {"enum": ["authorization_code"]}},
         "required": ["code", "code_verifier", "redirect_uri", "client_id"]},
        {"properties": {"grant_type": {"enum": ["refresh_token"]}},
         "required": ["refresh_token"]}]}


class OAuthTokenSchema(Strict):
    access_token = fields.String(required=True)
    token_type = fields.String(required=True)
    expires_in = fields.Integer(required=True)
    refresh_token = fields.String(required=True)
    scope = fields.String(required=True)


class OAuthRevokeFormSchema(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    token = fields.String(required=True, validate=validate.Length(min=1))
    token_type_hint = fields.String()
    client_id = fields.String()
    OPENAPI_EXTRA = {"additionalProperties": {"type": "string"}}  # a form holds strings only


class ConnectionSchema(Strict):
    grantId = fields.String(required=True)
    clientName = fields.String(required=True)
    clientId = fields.String(required=True)
    scopes = fields.List(fields.String(), required=True)
    createdAt = fields.String(required=True, allow_none=True)
    lastUsedAt = fields.String(required=True, allow_none=True)


class ConnectionListSchema(Strict):
    items = fields.List(fields.Nested(ConnectionSchema), required=True)
    nextCursor = fields.String(allow_none=True, required=True)


OAUTH_ERROR_JSON = {"type": "object", "required": ["error"], "properties": {
    "error": {"type": "string"}, "error_description": {"type": "string"}}}
