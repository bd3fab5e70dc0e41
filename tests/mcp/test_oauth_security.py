"""Each attack on the authorization server is refused the way the RFCs say."""
from __future__ import annotations

import time

import jwt
import pytest

from app.errors import Unauthenticated
from app.oauth.access_tokens import verify_access_token
from models.users import McpAuthRequest
from tests.mcp.conftest import REDIRECT, RESOURCE, hidden


def _error_page(reply, error: str) -> bool:
    """Before sign-in an error is a page here, never a redirect (RFC 9700 §4.11.2)."""
    assert reply.status_code == 400 and "Location" not in reply.headers
    return error in reply.get_data(as_text=True)


def _refused(reply, error="invalid_grant"):
    assert reply.status_code == 400, reply.get_data(as_text=True)
    assert reply.get_json()["error"] == error, reply.get_json()
    return True


# --- authorize --------------------------------------------------------------------------------

def test_a_redirect_uri_not_registered_gets_a_page_never_a_redirect(oauth, client):
    for redirect_uri in ("http://127.0.0.1:8765/other", "https://evil.example/cb",
                         REDIRECT + "/", None):
        reply = client.get(oauth.authorize_url(redirect_uri=redirect_uri))
        assert reply.status_code == 400 and "Location" not in reply.headers, redirect_uri
        assert reply.mimetype == "text/html" and "redirect_uri" in reply.get_data(as_text=True)
        assert reply.headers["X-Frame-Options"] == "DENY"


def test_an_unknown_client_gets_a_page(oauth, client):
    for client_id in ("", "nope", "1b4e28ba-2fa1-4d2b-a0c5-4f3c0d2e1a90"):
        reply = client.get(oauth.authorize_url(client_id=client_id))
        assert reply.status_code == 400 and "Location" not in reply.headers, client_id


PROTOCOL_ERRORS = [
    ({"code_challenge": None}, "invalid_request"),
    ({"code_challenge_method": None}, "invalid_request"),  # absent means plain (RFC 7636)
    ({"code_challenge_method": "plain"}, "invalid_request"),
    ({"response_type": "token"}, "unsupported_response_type"),
    ({"scope": "groups:read admin"}, "invalid_scope"),
]


def test_protocol_errors_before_sign_in_are_a_page_not_a_redirect(oauth, client):
    for overrides, error in PROTOCOL_ERRORS:
        assert _error_page(client.get(oauth.authorize_url(**overrides)), error), overrides
    assert list(McpAuthRequest.scan()) == []  # nothing stored for a refused request


def test_an_expired_request_cannot_be_approved(oauth, client):
    request_id = oauth.start()
    oauth.sign_in(request_id)
    csrf = hidden(oauth.consent_page(request_id).get_data(as_text=True), "csrf")
    row = McpAuthRequest.get(*McpAuthRequest.key(request_id))
    row.update(actions=[McpAuthRequest.ExpiresAt.set(int(time.time()) - 1)])  # TTL not yet run
    assert oauth.consent_page(request_id).status_code == 400
    reply = oauth.decide(request_id, csrf=csrf)
    assert reply.status_code == 400 and "Location" not in reply.headers


def test_a_request_is_approved_once(oauth, client):
    request_id = oauth.start()
    oauth.sign_in(request_id)
    csrf = hidden(oauth.consent_page(request_id).get_data(as_text=True), "csrf")
    session = client.get_cookie("tailspend_mcp_session", path="/oauth").value
    assert oauth.decide(request_id, csrf=csrf).status_code == 302
    client.set_cookie("tailspend_mcp_session", session, path="/oauth")  # a replayed answer
    reply = oauth.decide(request_id, csrf=csrf)
    assert reply.status_code == 400 and "Location" not in reply.headers


def test_consent_without_the_right_csrf_token_is_refused(oauth, client):
    request_id = oauth.start()
    oauth.sign_in(request_id)
    for csrf in ("", "forged", None):
        data = {"request": request_id, "decision": "approve"}
        if csrf is not None:
            data["csrf"] = csrf
        reply = client.post("/oauth/consent", data=data)
        assert reply.status_code == 403 and "Location" not in reply.headers, csrf
    assert oauth.decide(request_id).status_code == 302  # the request itself is untouched


def test_a_csrf_token_of_another_request_or_session_is_refused(oauth, client):
    first, second = oauth.start(), oauth.start()
    oauth.sign_in(first)
    csrf_first = hidden(oauth.consent_page(first).get_data(as_text=True), "csrf")
    oauth.sign_in(second)
    assert oauth.decide(second, csrf=csrf_first).status_code == 403
    client.delete_cookie("tailspend_mcp_session", path="/oauth")
    assert oauth.decide(first, csrf=csrf_first).status_code == 403  # no session: refused


def test_login_form_needs_its_csrf_token(oauth, client):
    request_id = oauth.start()
    reply = client.post("/oauth/login", data={"request": request_id, "email": "a@example.com"})
    assert reply.status_code == 403


# --- token ------------------------------------------------------------------------------------

def test_a_code_works_once_and_its_replay_revokes_the_connection(oauth):
    code = oauth.code()
    first = oauth.exchange(code)
    assert first.status_code == 200
    assert _refused(oauth.exchange(code))
    with pytest.raises(Unauthenticated):
        verify_access_token(first.get_json()["access_token"], resource=RESOURCE)
    assert _refused(oauth.refresh(first.get_json()["refresh_token"]))


def test_a_code_for_another_client_is_refused(oauth, client):
    other = client.post("/oauth/register", json={"redirect_uris": [REDIRECT]}).get_json()
    code = oauth.code()
    assert _refused(oauth.exchange(code, client_id=other["client_id"]))


def test_exchange_checks_pkce_redirect_and_resource(oauth):
    code = oauth.code()
    for overrides, error in [({"code_verifier": "w" * 43}, "invalid_grant"),
                             ({"code_verifier": None}, "invalid_request"),
                             ({"code_verifier": "short"}, "invalid_request"),
                             ({"redirect_uri": "http://127.0.0.1:8765/other"}, "invalid_grant"),
                             ({"resource": "https://other.example/mcp"}, "invalid_target"),
                             ({"client_id": None}, "invalid_request")]:
        assert _refused(oauth.exchange(code, **overrides), error), overrides
    assert _refused(oauth.exchange("not-a-code"))
    assert oauth.exchange(code).status_code == 200  # refusals did not spend the code


def test_a_token_for_another_resource_is_refused_by_the_mcp_check(oauth):
    tokens = oauth.tokens()
    with pytest.raises(Unauthenticated, match="another resource"):
        verify_access_token(tokens["access_token"], resource="https://other.example/mcp")


def test_refresh_reuse_revokes_the_whole_family(oauth):
    tokens = oauth.tokens()
    second = oauth.refresh(tokens["refresh_token"]).get_json()
    assert _refused(oauth.refresh(tokens["refresh_token"]))  # replay of a rotated token
    assert _refused(oauth.refresh(second["refresh_token"]))  # the family is revoked
    with pytest.raises(Unauthenticated):
        verify_access_token(second["access_token"], resource=RESOURCE)


def test_refresh_by_another_client_is_refused(oauth, client):
    tokens = oauth.tokens()
    other = client.post("/oauth/register", json={"client_name": "Other",
                                                 "redirect_uris": ["http://127.0.0.1:9/cb"]})
    assert _refused(oauth.refresh(tokens["refresh_token"],
                                  client_id=other.get_json()["client_id"]))
    # A client_id never issued here: invalid_client (401), which sends a host to register.
    unknown = oauth.refresh(tokens["refresh_token"], client_id="someone-else")
    assert unknown.status_code == 401 and unknown.get_json()["error"] == "invalid_client"


def test_token_endpoint_speaks_rfc_6749_errors(client, oauth):
    for form, error in [({}, "invalid_request"),
                        ({"grant_type": "password", "username": "a", "password": "b"},
                         "unsupported_grant_type"),
                        ({"grant_type": "client_credentials"}, "unsupported_grant_type"),
                        ({"grant_type": "refresh_token"}, "invalid_request")]:
        assert _refused(client.post("/oauth/token", data=form), error), form
        assert _refused(client.post("/oauth/token", json=form), "invalid_request")


def test_rfc_7009_revocation_always_answers_200_and_stops_the_connection(oauth, client):
    tokens = oauth.tokens()
    for junk in ("garbage", "a.b.c", "tsp_x_y"):
        assert client.post("/oauth/revoke", data={"token": junk}).status_code == 200
    assert _refused(client.post("/oauth/revoke", data={}), "invalid_request")
    assert client.post("/oauth/revoke", data={"token": tokens["refresh_token"]}).status_code == 200
    assert _refused(oauth.refresh(tokens["refresh_token"]))
    with pytest.raises(Unauthenticated):
        verify_access_token(tokens["access_token"], resource=RESOURCE)
    other = oauth.tokens()
    assert client.post("/oauth/revoke", data={"token": other["access_token"]}).status_code == 200
    assert _refused(oauth.refresh(other["refresh_token"]))


# --- the rest of the API ----------------------------------------------------------------------

def test_mcp_tokens_are_refused_by_every_other_route(oauth, client):
    tokens = oauth.tokens()
    bearer = {"Authorization": f"Bearer {tokens['access_token']}"}
    for path in ("/users/me", "/users/me/connections", "/users/me/groups", "/developer/tokens"):
        assert client.get(path, headers=bearer).status_code == 401, path


def test_authenticator_refuses_an_audience_bound_token_even_with_app_claims(app, client,
                                                                            sign_in):
    """The checks app/auth/tokens.py adds: a token shaped like a local app token (issuer,
    client_id, token_use, the local key) is still refused once it is typed or audience-bound."""
    _, user_id = sign_in("ann@example.com")
    issuer = app.extensions["tailspend"].issuer
    good = jwt.decode(issuer.mint(_subject("ann@example.com")), options={"verify_signature": False})
    for claims, headers in (({**good, "aud": RESOURCE}, {}), (good, {"typ": "at+jwt"})):
        token = jwt.encode(claims, issuer.private_key, algorithm="RS256",
                           headers={"kid": issuer.kid, **headers})
        assert client.get("/users/me", headers={"Authorization": f"Bearer {token}"}
                          ).status_code == 401
    control = jwt.encode(good, issuer.private_key, algorithm="RS256", headers={"kid": issuer.kid})
    assert client.get("/users/me", headers={"Authorization": f"Bearer {control}"}
                      ).status_code == 200


def _subject(email):
    from app.auth.local_issuer import subject_for_email
    return subject_for_email(email)


def test_personal_access_tokens_cannot_manage_connections(client, sign_in):
    headers, _ = sign_in("ann@example.com")
    pat = client.post("/developer/tokens", headers=headers,
                      json={"name": "x", "scopes": ["groups:read"]}).get_json()["token"]
    bearer = {"Authorization": f"Bearer {pat}"}
    assert client.get("/users/me/connections", headers=bearer).status_code == 403
    assert client.delete("/users/me/connections/1b4e28ba-2fa1-4d2b-a0c5-4f3c0d2e1a90",
                         headers=bearer).status_code == 403
    assert client.get("/users/me/connections").status_code == 401
