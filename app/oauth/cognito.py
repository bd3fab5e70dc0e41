"""AWS sign-in for the MCP consent flow: the Cognito hosted UI, back to /oauth/callback.

The template's McpUserPoolClient (public, code flow with PKCE, callback <base>/oauth/callback)
is a second app client of the same pool, so the account is the same one the apps use. The
callback's ``state`` is the authorization request id; the PKCE verifier for this leg is an
HMAC of that id, so nothing is stored between the redirect and the callback. The Cognito
access token is verified like any other (issuer, keys, token_use) for that client and mapped
to the user through the same identity rows; then the browser gets the consent session."""
from __future__ import annotations

import json
import urllib.parse
import urllib.request

from flask import Blueprint, current_app, request

from app.api.context import settings
from app.api.needs import needs
from app.oauth.ui import base_url, error_page, signed_in
from app.errors import DomainError
from app.oauth import flow, sessions

bp = Blueprint("oauth_cognito", __name__)
TIMEOUT_S = 5.0


def _exchange(code: str, request_id: str) -> str:
    body = urllib.parse.urlencode({
        "grant_type": "authorization_code", "client_id": settings().mcp_cognito_client_id,
        "code": code, "redirect_uri": f"{base_url()}/oauth/callback",
        "code_verifier": sessions.hosted_ui_verifier(request_id)}).encode()
    call = urllib.request.Request(f"{settings().cognito_domain}/oauth2/token", data=body,  # noqa: S310
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(call, timeout=TIMEOUT_S) as reply:  # noqa: S310 (our pool)
        return json.loads(reply.read())["access_token"]


@bp.route("/oauth/callback")
@needs(public=True)
def callback():
    if settings().local_mode or not settings().mcp_cognito_client_id:
        return error_page("Not found.", 404)
    request_id = request.args.get("state") or ""
    try:
        flow.pending(request_id)
    except DomainError as error:
        return error_page(error.message, 400)
    code = request.args.get("code")
    if not code:
        return error_page("Sign-in was cancelled.", 400)
    try:
        access_token = _exchange(code, request_id)
        authenticator = current_app.extensions["tailspend"].authenticator
        user_id = authenticator.user_for_client_token(access_token,
                                                      settings().mcp_cognito_client_id)
    except DomainError as error:
        return error_page(error.message, 401)
    except (OSError, ValueError, KeyError):
        return error_page("Sign-in could not be completed; try again.", 502)
    return signed_in(request_id, user_id)
