"""The whole code flow through the Flask test client: register, authorize, sign in, consent,
token, refresh, connections, disconnect."""
from __future__ import annotations

import jwt

from app.oauth.access_tokens import verify_access_token
from models.users import McpCleanupPointer, McpGrant, UserItem
from tests.mcp.conftest import RESOURCE


def test_discovery_documents_name_this_server(client):
    resource = client.get("/.well-known/oauth-protected-resource").get_json()
    assert resource == client.get("/.well-known/oauth-protected-resource/mcp").get_json()
    assert resource["resource"] == RESOURCE
    assert resource["authorization_servers"] == ["http://localhost"]
    assert resource["bearer_methods_supported"] == ["header"]
    server = client.get("/.well-known/oauth-authorization-server").get_json()
    assert server["issuer"] == "http://localhost"
    assert server["code_challenge_methods_supported"] == ["S256"]
    assert server["token_endpoint_auth_methods_supported"] == ["none"]
    assert server["client_id_metadata_document_supported"] is True
    assert server["authorization_response_iss_parameter_supported"] is True
    assert set(server["scopes_supported"]) == set(resource["scopes_supported"])


def test_public_base_url_names_issuer_and_resource(app, client):
    runtime = app.extensions["tailspend"]
    original = runtime.settings
    runtime.settings = original._replace(public_base_url="https://api.tailspend.example")
    try:
        server = client.get("/.well-known/oauth-authorization-server").get_json()
        resource = client.get("/.well-known/oauth-protected-resource").get_json()
    finally:
        runtime.settings = original
    assert server["token_endpoint"] == "https://api.tailspend.example/oauth/token"
    assert resource["resource"] == "https://api.tailspend.example/mcp"
    from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
    AuthorizationServerMetadata(server).validate()  # RFC 8414 as Authlib reads it


def test_full_code_flow_then_refresh_rotates(oauth, client):
    request_id = oauth.start()
    page = oauth.consent_page(request_id)
    assert page.status_code == 302 and "/oauth/login" in page.headers["Location"]  # sign in first
    oauth.sign_in(request_id)
    consent = oauth.consent_page(request_id)
    html = consent.get_data(as_text=True)
    assert consent.status_code == 200 and "Claude" in html and "127.0.0.1:8765" in html
    assert "groups:read" in html and "expenses:write" in html and "settlements:write" not in html
    assert consent.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in consent.headers["Content-Security-Policy"]
    assert consent.headers["Cache-Control"] == "no-store"
    approved = oauth.decide(request_id)
    assert approved.status_code == 302
    code = approved.headers["Location"].split("code=")[1].split("&")[0]

    reply = oauth.exchange(code)
    assert reply.status_code == 200, reply.get_json()
    assert reply.headers["Cache-Control"] == "no-store"
    tokens = reply.get_json()
    assert tokens["token_type"] == "Bearer" and 0 < tokens["expires_in"] <= 3600
    assert tokens["scope"] == "groups:read expenses:write"
    claims = jwt.decode(tokens["access_token"], options={"verify_signature": False})
    assert claims["aud"] == RESOURCE and claims["exp"] - claims["iat"] <= 3600
    principal = verify_access_token(tokens["access_token"], resource=RESOURCE)
    assert principal.scopes == {"groups:read", "expenses:write"}
    assert principal.client_name == "Claude"

    rotated = oauth.refresh(tokens["refresh_token"])
    assert rotated.status_code == 200, rotated.get_json()
    fresh = rotated.get_json()
    assert fresh["refresh_token"] != tokens["refresh_token"]
    assert verify_access_token(fresh["access_token"], resource=RESOURCE).grant_id == \
        principal.grant_id
    assert oauth.refresh(fresh["refresh_token"]).status_code == 200


def test_only_hashes_are_stored_and_every_foreign_row_has_a_pointer(oauth, client):
    code = oauth.code()
    tokens = oauth.exchange(code).get_json()
    rows = list(UserItem.scan())
    text = repr([r.attribute_values for r in rows])
    for secret in (code, tokens["access_token"], tokens["refresh_token"]):
        assert secret not in text
    grant = next(r for r in rows if isinstance(r, McpGrant))
    pointers = {(p.TargetUserId, p.TargetSK) for p in rows if isinstance(p, McpCleanupPointer)}
    foreign = {(r.UserId, r.SK) for r in rows if r.UserId.startswith(("MCPCODE#", "MCPRT#"))}
    assert foreign and foreign == pointers
    assert all(p.UserId == grant.UserId for p in rows if isinstance(p, McpCleanupPointer))


def test_connections_list_and_disconnect(oauth, client, sign_in):
    tokens = oauth.tokens("ann@example.com")
    headers, _ = sign_in("ann@example.com")
    listed = client.get("/users/me/connections", headers=headers).get_json()["items"]
    assert len(listed) == 1
    connection = listed[0]
    assert connection["clientName"] == "Claude"
    assert connection["scopes"] == ["groups:read", "expenses:write"]
    assert connection["createdAt"] and connection["lastUsedAt"]
    other, _ = sign_in("bob@example.com")
    assert client.get("/users/me/connections", headers=other).get_json()["items"] == []
    gone = f"/users/me/connections/{connection['grantId']}"
    assert client.delete(gone, headers=other).status_code == 404
    assert client.delete(gone, headers=headers).status_code == 204
    assert client.get("/users/me/connections", headers=headers).get_json()["items"] == []
    refreshed = oauth.refresh(tokens["refresh_token"])
    assert refreshed.status_code == 400 and refreshed.get_json()["error"] == "invalid_grant"
    # A new connection is a new grant; the old family cannot bind to it.
    again = oauth.tokens("ann@example.com")
    assert verify_access_token(again["access_token"], resource=RESOURCE).grant_id != \
        connection["grantId"]
    assert oauth.refresh(tokens["refresh_token"]).status_code == 400


def test_deny_sends_access_denied(oauth):
    request_id = oauth.start()
    oauth.sign_in(request_id)
    reply = oauth.decide(request_id, "deny")
    assert reply.status_code == 302
    assert "error=access_denied" in reply.headers["Location"]
    assert "state=st-1" in reply.headers["Location"]
    assert oauth.consent_page(request_id).status_code == 400  # the request is consumed
