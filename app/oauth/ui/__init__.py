"""The browser half of the MCP connector's authorization: sign-in and consent pages.

Plain server-rendered HTML and one stylesheet from this server: no CDN, no JavaScript
needed. Every page is sent with X-Frame-Options: DENY, a CSP of ``default-src 'none'`` with
``frame-ancestors 'none'`` (clickjacking), ``form-action`` limited to this server and the
client's redirect origin (the consent form's answer is a redirect there), and no-store.

Sign-in: local mode shows a form (any e-mail, provisioned like POST /dev/tokens); in AWS the
Cognito hosted UI (COGNITO_DOMAIN, MCP_COGNITO_CLIENT_ID) returns to /oauth/callback. Either
way the browser then holds a signed, 10-minute cookie binding the user to this one request."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional
from urllib.parse import urlencode, urlsplit

from flask import Blueprint, make_response, redirect, render_template, request, send_from_directory

from app.api.context import settings
from app.api.needs import needs
from app.errors import DomainError
from app.oauth import clients, flow, sessions
from app.users import local_auth

bp = Blueprint("oauth_ui", __name__, template_folder="templates")
STATIC = Path(__file__).parent / "static"
COOKIE = "tailspend_mcp_session"
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}\.[^@\s]{1,60}$")
SCOPE_TEXT = {"groups:read": "See your groups, expenses, balances and settle-up plans",
              "expenses:write": "Add expenses and comments in your groups",
              "settlements:write": "Record settlements in your groups"}


def base_url() -> str:
    """PUBLIC_BASE_URL when set (AWS); otherwise the URL this request came in on (local)."""
    return settings().public_base_url or request.host_url.rstrip("/")


def _secure(response, redirect_origin: Optional[str] = None):
    targets = " ".join(filter(None, ["'self'", redirect_origin]))
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; style-src 'self'; img-src 'self'; form-action {targets}; "
        "frame-ancestors 'none'; base-uri 'none'")
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def page(template: str, status: int = 200, redirect_origin: Optional[str] = None, **context):
    response = make_response(render_template(f"oauth/{template}", **context), status)
    response.mimetype = "text/html"
    return _secure(response, redirect_origin)


def error_page(message: str, status: int = 400):
    return page("error.html", status, message=message)


def back_to_client(redirect_uri: str, params: dict):
    """302 to the client's verified redirect URI with ``iss`` (RFC 9207)."""
    query = {k: v for k, v in {**params, "iss": base_url()}.items() if v is not None}
    joiner = "&" if urlsplit(redirect_uri).query else "?"
    return _secure(redirect(redirect_uri + joiner + urlencode(query), 302))


def to_sign_in(request_id: str):
    if settings().local_mode:
        return _secure(redirect(f"{base_url()}/oauth/login?{urlencode({'request': request_id})}"))
    if not (settings().cognito_domain and settings().mcp_cognito_client_id):
        return error_page("Sign-in is not configured on this server.", 503)
    return _secure(redirect(sessions.hosted_ui_url(
        domain=settings().cognito_domain, client_id=settings().mcp_cognito_client_id,
        callback=f"{base_url()}/oauth/callback", request_id=request_id)))


def _origin(uri: str) -> str:
    parts = urlsplit(uri)
    return f"{parts.scheme}://{parts.netloc}"


def signed_in(request_id: str, user_id: str):
    """The session cookie is set; on to consent."""
    response = _secure(redirect(f"{base_url()}/oauth/consent?"
                                f"{urlencode({'request': request_id})}", 303))
    response.set_cookie(COOKIE, sessions.session_for(request_id, user_id),
                        max_age=sessions.SESSION_TTL_S, path="/oauth", httponly=True,
                        secure=base_url().startswith("https://"), samesite="Lax")
    return response


@bp.route("/oauth/assets/consent.css")
@needs(public=True)
def stylesheet():
    response = send_from_directory(STATIC, "consent.css", mimetype="text/css", max_age=3600)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.route("/oauth/login", methods=["GET", "POST"])
@needs(public=True, form_body=True)
def login():
    if not settings().local_mode:
        return error_page("Not found.", 404)
    request_id = request.values.get("request") or ""
    try:
        pending = flow.pending(request_id)
    except DomainError as error:
        return error_page(error.message, 400)
    values = {"request_id": request_id, "csrf": sessions.csrf_token(request_id),
              "client_name": pending.client_name, "email": "", "problem": None}
    if request.method == "GET":
        return page("login.html", **values)
    if not sessions.csrf_ok(request.form.get("csrf"), request_id):
        return error_page("This form expired or did not come from TailSpend; start again.", 403)
    email = (request.form.get("email") or "").strip()
    display_name = (request.form.get("display_name") or "").strip()[:100] or None
    if not EMAIL.match(email):
        return page("login.html", 400, **{**values, "email": email,
                                            "problem": "Enter a valid e-mail address."})
    user_id = local_auth.local_user(email=email, display_name=display_name,
                                    test_domain=settings().test_account_domain)
    return signed_in(request_id, user_id)


@bp.route("/oauth/consent", methods=["GET", "POST"])
@needs(public=True, form_body=True)
def consent():
    request_id = request.values.get("request") or ""
    user_id = sessions.user_of(request.cookies.get(COOKIE), request_id)
    if user_id is None:
        if request.method == "POST":
            return error_page("Your sign-in for this request is missing or expired.", 403)
        try:
            flow.pending(request_id)
        except DomainError as error:
            return error_page(error.message, 400)
        return to_sign_in(request_id)
    try:
        pending = flow.pending(request_id)
    except DomainError as error:
        return error_page(error.message, 400)
    if request.method == "GET":
        return page("consent.html", redirect_origin=_origin(pending.redirect_uri),
                    request_id=request_id, csrf=sessions.csrf_token(request_id, user_id),
                    client_name=pending.client_name, client_id=pending.client_id,
                    client_host=clients.redirect_host(pending.client_id)
                    if clients.is_metadata_url(pending.client_id) else None,
                    redirect_host=clients.redirect_host(pending.redirect_uri),
                    scopes=[(s, SCOPE_TEXT.get(s, s)) for s in pending.scopes])
    if not sessions.csrf_ok(request.form.get("csrf"), request_id, user_id):
        return error_page("This form expired or did not come from TailSpend; start again.", 403)
    try:
        if request.form.get("decision") == "approve":
            grant_id = flow.approve(pending, user_id)
            code = flow.issue_code(pending, user_id, grant_id)
            params = {"code": code, "state": pending.state}
        else:
            flow.deny(pending)
            params = {"error": "access_denied", "error_description": "The user said no.",
                      "state": pending.state}
    except DomainError as error:
        return error_page(error.message, 400)
    response = back_to_client(pending.redirect_uri, params)
    response.delete_cookie(COOKIE, path="/oauth")
    return response
