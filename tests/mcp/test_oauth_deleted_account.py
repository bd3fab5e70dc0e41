"""An account whose deletion has begun gets nothing more from the authorization server: no
code is exchanged, no refresh token rotates, no access token is accepted (the token writes
hold the owner's profile live in their transaction; /mcp reads it on every request)."""
from __future__ import annotations

import jwt

from models.users import DELETING, Profile
from tests.mcp.mcp_client import ACCEPT


def _user_of(access_token: str) -> str:
    return jwt.decode(access_token, options={"verify_signature": False})["sub"]


def _mark_deleting(user_id: str) -> None:
    Profile(*Profile.key(user_id)).update(actions=[Profile.Status.set(DELETING)])


def test_a_code_is_not_exchanged_for_an_account_being_deleted(oauth, client):
    user_id = _user_of(oauth.tokens("early@example.com")["access_token"])
    code = oauth.code("early@example.com")
    _mark_deleting(user_id)
    reply = oauth.exchange(code)
    assert reply.status_code == 400 and reply.get_json()["error"] == "invalid_grant"


def test_refresh_and_access_tokens_stop_when_the_deletion_begins(oauth, client):
    tokens = oauth.tokens("ann@example.com")
    headers = {"Authorization": f"Bearer {tokens['access_token']}", "Accept": ACCEPT}
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert client.post("/mcp", json=ping, headers=headers).status_code == 200  # grant cached
    _mark_deleting(_user_of(tokens["access_token"]))

    assert client.post("/mcp", json=ping, headers=headers).status_code == 401
    reply = oauth.refresh(tokens["refresh_token"])
    assert reply.status_code == 400 and reply.get_json()["error"] == "invalid_grant"
