"""The MCP connector's OAuth 2.1 authorization server (discovery, registration, authorize,
token, revoke) and the caller's connections. The consent and sign-in pages the authorize
step leads to are in app.oauth.ui (HTML, outside the JSON document)."""
from __future__ import annotations

from flask import jsonify, request

from app.oauth import ui as oauth_ui
from app.api.context import principal, settings
from app.api.needs import needs
from app.api.spec import Blueprint, errors
from app.errors import OAuthError
from app.oauth.errors import oauth_invalid_client_metadata
from app.oauth.schemas import (OAUTH_ERROR_JSON, AuthorizationServerSchema,
                               ClientRegisteredSchema, ClientRegistrationSchema,
                               ConnectionListSchema, ProtectedResourceSchema,
                               OAuthRevokeFormSchema, OAuthTokenFormSchema, OAuthTokenSchema)
from app.oauth import clients, flow, grants, tokens

blp = Blueprint("oauth", __name__, description="MCP connector: OAuth 2.1 authorization server")

SCOPES = list(flow.SCOPES)
ERROR_OR_OAUTH = {"anyOf": [{"$ref": "#/components/schemas/ErrorEnvelope"}, OAUTH_ERROR_JSON]}


TOO_MANY = (429, "too_many_requests: this client's (or, for a refresh, this connection's) "
                 "window is full; Retry-After says when to come back.")


def _oauth_errors(*replies):
    """Document RFC 6749/7591 error bodies (``{"error": "invalid_grant", ...}``); a body the
    edge refuses before the view (bad JSON, bad text) is our envelope, so either shape."""
    return blp.doc(responses={str(status): {"description": text, "content": {
        "application/json": {"schema": ERROR_OR_OAUTH}}} for status, text in replies})


def _form_doc(schema):
    return blp.doc(requestBody={"required": True, "content": {
        "application/x-www-form-urlencoded": {"schema": schema}}})


def _no_store(response):
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    return response


def _spend(subject: str) -> None:
    """One request from this client's (or grant's) window; 429 too_many_requests when full.

    Not per address: Claude's and ChatGPT's connectors call from shared address ranges, and
    a host refused at the token endpoint falls back to a fresh interactive sign-in."""
    from app.developer import gate as developer_gate

    developer_gate.runtime().limiter.spend_oauth(subject)


@blp.route("/.well-known/oauth-protected-resource")
@needs(public=True, metered=False)
@blp.response(200, ProtectedResourceSchema)
@blp.doc(security=[])
def protected_resource():
    """RFC 9728 metadata of the MCP endpoint."""
    return _resource_metadata()


def _resource_metadata() -> dict:
    base = oauth_ui.base_url()
    return {"resource": f"{base}/mcp", "authorization_servers": [base],
            "scopes_supported": SCOPES, "bearer_methods_supported": ["header"],
            "resource_name": "TailSpend"}


@blp.route("/.well-known/oauth-protected-resource/mcp")
@needs(public=True, metered=False)
@blp.response(200, ProtectedResourceSchema)
@blp.doc(security=[])
def protected_resource_mcp():
    """The same metadata at the path-suffixed location RFC 9728 §3.1 derives from /mcp."""
    return _resource_metadata()


@blp.route("/.well-known/oauth-authorization-server")
@needs(public=True, metered=False)
@blp.response(200, AuthorizationServerSchema)
@blp.doc(security=[])
def authorization_server():
    """RFC 8414 authorization-server metadata."""
    base = oauth_ui.base_url()
    return {"issuer": base, "authorization_endpoint": f"{base}/oauth/authorize",
            "token_endpoint": f"{base}/oauth/token",
            "registration_endpoint": f"{base}/oauth/register",
            "revocation_endpoint": f"{base}/oauth/revoke",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "revocation_endpoint_auth_methods_supported": ["none"],
            "scopes_supported": SCOPES, "client_id_metadata_document_supported": True,
            "authorization_response_iss_parameter_supported": True}


@blp.route("/oauth/register", methods=["POST"])
@needs(public=True, client_limited=True)
@blp.doc(security=[], requestBody={"required": True, "content": {
    "application/json": {"schema": ClientRegistrationSchema}}})
@blp.response(201, ClientRegisteredSchema)
@_oauth_errors((400, "invalid_redirect_uri or invalid_client_metadata (RFC 7591 §3.2.2)."),
               (413, "The body is over 64 KiB."), TOO_MANY)
def register():
    """RFC 7591 registration of a public client (redirect URIs https, or http on loopback)."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise oauth_invalid_client_metadata("Send the client metadata as a JSON object.")
    problems = ClientRegistrationSchema().validate(body)
    if problems:
        field = next(iter(problems))
        if field == "redirect_uris":
            raise OAuthError("invalid_redirect_uri", "Redirect URIs must be https, or http on "
                                                     "a loopback host (1 to 10 of them).")
        raise oauth_invalid_client_metadata(f"{field}: {problems[field]}")
    _spend(clients.registration_subject(body))
    return clients.register(body), 201


@blp.route("/oauth/authorize")
@needs(public=True)
@blp.doc(security=[], parameters=[
    {"in": "query", "name": name, "required": required, "schema": {"type": "string"}}
    for name, required in (("response_type", True), ("client_id", True),
                           ("redirect_uri", True), ("code_challenge", True),
                           ("code_challenge_method", True), ("state", False),
                           ("scope", False), ("resource", False))], responses={
    "302": {"description": "To sign-in and consent."},
    "400": {"description": "Any error in the request (an unknown client, a redirect_uri it "
                           "did not register, a bad response_type or scope): an error page, "
                           "never a redirect before sign-in (RFC 9700 §4.11.2).",
            "content": {"text/html": {"schema": {"type": "string"}},
                        "application/json": {"schema": ERROR_OR_OAUTH}}},
    "429": {"description": "too_many_requests: this address's window is full (Retry-After).",
            "content": {"application/json": {"schema": ERROR_OR_OAUTH}}}})
def authorize():
    """Start an authorization: validate, store the request (10 minutes), sign the user in."""
    params = {k: v for k, v in request.args.items()}
    repeated = [name for name, values in request.args.lists() if len(values) > 1]
    base = oauth_ui.base_url()
    try:
        pending = flow.start(params, resource=f"{base}/mcp", repeated=repeated,
                             allow_private=settings().allow_private_client_fetch)
    except flow.ClientRefused as refused:
        return oauth_ui.error_page(refused.message, 400)
    except flow.RedirectableError as error:
        # RFC 9700 §4.11.2: no automatic redirect before the user is authenticated, and the
        # redirect URIs here are ones anyone may have registered (dynamic registration) or
        # published (a metadata document): the error is a page. Errors after sign-in
        # (consent: access_denied) still go back to the client.
        return oauth_ui.error_page(f"{error.error}: {error.description}", 400)
    return oauth_ui.to_sign_in(pending.request_id)


@blp.route("/oauth/token", methods=["POST"])
@needs(public=True, client_limited=True, form_body=True)
@_form_doc(OAuthTokenFormSchema)
@blp.doc(security=[])
@blp.response(200, OAuthTokenSchema)
@_oauth_errors((400, "RFC 6749 §5.2: invalid_request, invalid_grant (a bad, used or "
                     "expired code or refresh token, a PKCE mismatch, a revoked connection), "
                     "unsupported_grant_type, invalid_target, invalid_scope."),
               (401, "invalid_client."), (413, "The body is over 64 KiB."),
               (415, "Not form-encoded."), TOO_MANY)
def token():
    """Exchange a code (PKCE) or rotate a refresh token: a 1-hour access token for <base>/mcp."""
    if request.mimetype != "application/x-www-form-urlencoded":
        raise OAuthError("invalid_request", "Send the parameters form-encoded.")
    form = {k: v for k, v in request.form.items()}
    reply = jsonify(tokens.token(form, resource=f"{oauth_ui.base_url()}/mcp", spend=_spend))
    return _no_store(reply)


@blp.route("/oauth/revoke", methods=["POST"])
@needs(public=True, client_limited=True, form_body=True)
@_form_doc(OAuthRevokeFormSchema)
@blp.doc(security=[])
@blp.response(200)
@_oauth_errors((400, "invalid_request: no token parameter, or not form-encoded."),
               (413, "The body is over 64 KiB."), (415, "Not form-encoded."), TOO_MANY)
def revoke():
    """RFC 7009: revoke a refresh or access token (its whole connection). Any token, ours or
    not, valid or not, is a 200; only a request without a token is malformed (§2.2.1)."""
    if request.mimetype != "application/x-www-form-urlencoded" or not request.form.get("token"):
        raise OAuthError("invalid_request", "Send the token parameter, form-encoded.")
    _spend(tokens.revocation_subject(request.form["token"], request.form.get("client_id")))
    tokens.revoke_token(request.form["token"])
    return _no_store(jsonify({}))


@blp.route("/users/me/connections")
@needs()
@blp.response(200, ConnectionListSchema)
@errors(blp, (403, "Personal access tokens cannot manage connections."))
def list_connections():
    """The caller's MCP connections: client name, scopes, created and last used."""
    return {"items": grants.list_connections(principal().user_id), "nextCursor": None}


@blp.route("/users/me/connections/<uuid:grantId>", methods=["DELETE"])
@needs()
@blp.response(204)
@errors(blp, (403, "Personal access tokens cannot manage connections."),
        (404, "No such connection of the caller."))
def disconnect(grant_id):
    """Disconnect: the grant is REVOKED at once; its tokens and refreshes stop working."""
    grants.disconnect(principal().user_id, str(grant_id))
