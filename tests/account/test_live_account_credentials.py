"""Every credential of an account stops on every instance the moment its deletion begins.

Two apps (two create_app instances: separate identity, token and grant caches) over one
database: instance A serves Dora with every cache warm, instance B deletes (or only marks)
her account, and A must refuse her at once, with no cache window."""
from __future__ import annotations

import pytest

from app import create_app
from app.config import Settings
from app.account import deletion
from app.developer.verify import TokenVerifier
from app.oauth import access_tokens
from models.developer_tokens import AccessToken
from models.users import Profile
from tests.mcp.mcp_client import grant_token


@pytest.fixture
def instances(app, settings):
    """(A, B): the session app, and a second app with its own caches on the same tables."""
    other = create_app(Settings(stage=settings.stage, region="us-east-1", local_mode=True,
                                data_dir=settings.data_dir, cursor_secret=b"test-cursor-secret"))
    return app.test_client(), other.test_client()


def _dora(a, olive_group=True):
    """Dora signed in on A with a PAT and an MCP token, every cache of A warmed by using
    them; Olive with a group and its invite code."""
    dora = a.post("/dev/tokens", json={"email": "dora@example.com"}).get_json()
    jwt_h = {"Authorization": f"Bearer {dora['accessToken']}"}
    pat = a.post("/developer/tokens", headers=jwt_h,
                 json={"name": "cli", "scopes": ["groups:read", "expenses:write"],
                       "expiresInDays": 365}).get_json()
    pat_h = {"Authorization": f"Bearer {pat['token']}"}
    olive = a.post("/dev/tokens", json={"email": "olive@example.com"}).get_json()
    olive_h = {"Authorization": f"Bearer {olive['accessToken']}"}
    group = a.post("/groups", headers=olive_h, json={"name": "O", "currency": "EUR"}).get_json()
    code = a.get(f"/groups/{group['groupId']}/invite", headers=olive_h).get_json()["code"]
    mcp, _ = grant_token(dora["userId"])
    mcp_h = {"Authorization": f"Bearer {mcp}", "Accept": "application/json, text/event-stream"}
    for headers in (jwt_h, pat_h):
        assert a.get("/users/me/groups", headers=headers).status_code == 200  # caches warm
    assert _mcp_ping(a, mcp_h) == 200
    return dict(user=dora["userId"], jwt=jwt_h, pat=pat_h, mcp=mcp_h, olive=olive["userId"],
                group=group["groupId"], code=code)


def _mcp_ping(client, headers) -> int:
    return client.post("/mcp", headers=headers, json={
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "list_groups", "arguments": {}}}).status_code


def _refused_everywhere_on(a, dora) -> dict:
    """Status of each thing Dora tries on A."""
    return {
        "read (app)": a.get("/users/me/groups", headers=dora["jwt"]).status_code,
        "read (PAT)": a.get("/users/me/groups", headers=dora["pat"]).status_code,
        "read (MCP)": _mcp_ping(a, dora["mcp"]),
        # the routes whose own BatchGetItem reads the profile (no read at authentication)
        "people (app)": a.get("/users/me/people", headers=dora["jwt"]).status_code,
        "people (PAT)": a.get("/users/me/people", headers=dora["pat"]).status_code,
        "my expenses (app)": a.get("/users/me/expenses", headers=dora["jwt"]).status_code,
        "token mint": a.post("/developer/tokens", headers=dora["jwt"], json={
            "name": "late", "scopes": ["groups:read"], "expiresInDays": 365}).status_code,
        "friend request": a.post("/people/me/friends", headers=dora["jwt"],
                                 json={"userId": dora["olive"]}).status_code,
        "join request": a.post(f"/groups/{dora['group']}/join-requests", headers=dora["jwt"],
                               json={"code": dora["code"], "mode": "NEW"}).status_code,
        "expense (PAT)": a.post(f"/groups/{dora['group']}/expenses", headers=dora["pat"],
                                json={}).status_code,
    }


ALL_401 = {name: 401 for name in ("read (app)", "read (PAT)", "read (MCP)", "people (app)",
                                  "people (PAT)", "my expenses (app)", "token mint",
                                  "friend request", "join request", "expense (PAT)")}


def test_a_deletion_on_another_instance_is_refused_at_once(instances):
    a, b = instances
    dora = _dora(a)
    assert b.delete("/users/me", headers=dora["jwt"]).status_code == 204
    assert _refused_everywhere_on(a, dora) == ALL_401


def test_a_deletion_begun_on_another_instance_is_refused_at_once(instances):
    """Only the mark is written (a deletion still running, or crashed right after it): the
    token rows, grants and identities still exist, and A's caches hold all of them."""
    a, b = instances
    dora = _dora(a)
    with pytest.raises(RuntimeError):
        deletion.delete_account(dora["user"], after_step=_stop_after("mark"))
    assert Profile.get(*Profile.key(dora["user"])).deleting
    assert list(AccessToken.for_owner(dora["user"]))  # the PAT row is still there
    assert _refused_everywhere_on(a, dora) == ALL_401
    assert b.delete("/users/me", headers=dora["jwt"]).status_code == 204  # B finishes it


def _stop_after(step):
    def hook(name):
        if name == step:
            raise RuntimeError(f"stopped after {step}")
    return hook


def test_the_verifiers_refuse_a_deleting_owner_through_their_caches(app, sign_in):
    headers, user_id = sign_in("dora@example.com")
    client = app.test_client()
    pat = client.post("/developer/tokens", headers=headers,
                      json={"name": "cli", "scopes": ["groups:read"]}).get_json()["token"]
    mcp, _ = grant_token(user_id)
    verifier = TokenVerifier(ttl_seconds=3600)  # a cache that would hold for an hour
    assert verifier.verify(pat).user_id == user_id
    assert access_tokens.verify_access_token(mcp, resource="http://localhost/mcp")

    Profile(*Profile.key(user_id)).update(actions=[Profile.Status.set("DELETING")])
    from app.errors import Unauthenticated
    with pytest.raises(Unauthenticated):
        verifier.verify(pat)
    with pytest.raises(Unauthenticated):
        access_tokens.verify_access_token(mcp, resource="http://localhost/mcp")
