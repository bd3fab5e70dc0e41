"""MCP access tokens: signature, audience, expiry and the grant status behind them."""
from __future__ import annotations

import time

import jwt
import pytest

from app.config import Settings
from app.errors import Unauthenticated
from app.oauth import access_tokens as at
from app.oauth import keys
from models.users import McpGrant, Profile

RESOURCE = "http://localhost/mcp"


@pytest.fixture
def grant(app):
    at.grant_cache.clear()
    Profile("u-1", "PROFILE", Email="u1@example.com", DisplayName="U").save()  # a live owner
    row = McpGrant("u-1", McpGrant.sort_key("g-1"), GrantId="g-1", Status="ACTIVE",
                   Client="Claude")
    row.save()
    return row


def _mint(**overrides):
    args = dict(user_id="u-1", grant_id="g-1", scopes={"groups:read"}, client_name="Claude",
                resource=RESOURCE)
    args.update(overrides)
    return at.mint_access_token(**args)


def test_a_fresh_token_names_its_user_grant_and_scopes(grant):
    principal = at.verify_access_token(_mint(), resource=RESOURCE)
    assert principal == at.McpPrincipal("u-1", "g-1", frozenset({"groups:read"}), "Claude")


def test_lifetime_is_capped_at_an_hour(grant):
    claims = jwt.decode(_mint(lifetime_s=99999), options={"verify_signature": False})
    assert claims["exp"] - claims["iat"] == 3600


@pytest.mark.parametrize("token", ["", "garbage", "a.b.c"])
def test_malformed_tokens_are_refused(grant, token):
    with pytest.raises(Unauthenticated):
        at.verify_access_token(token, resource=RESOURCE)


def test_expired_and_other_resource_tokens_are_refused(grant):
    with pytest.raises(Unauthenticated, match="expired"):
        at.verify_access_token(_mint(now=time.time() - 7200), resource=RESOURCE)
    with pytest.raises(Unauthenticated, match="another resource"):
        at.verify_access_token(_mint(resource="https://evil.example/mcp"), resource=RESOURCE)


def test_a_token_signed_by_another_key_is_refused(grant):
    from cryptography.hazmat.primitives.asymmetric import rsa
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    forged = jwt.encode(jwt.decode(_mint(), options={"verify_signature": False}), other,
                        algorithm="RS256", headers={"kid": keys.current().kid, "typ": "at+jwt"})
    with pytest.raises(Unauthenticated):
        at.verify_access_token(forged, resource=RESOURCE)


def test_a_revoked_or_missing_grant_stops_the_token(grant):
    token = _mint()
    at.verify_access_token(token, resource=RESOURCE)
    grant.update(actions=[McpGrant.Status.set("REVOKED")])
    at.verify_access_token(token, resource=RESOURCE)  # cached for a few seconds at most
    at.forget_grant("u-1", "g-1")
    with pytest.raises(Unauthenticated):
        at.verify_access_token(token, resource=RESOURCE)
    with pytest.raises(Unauthenticated):
        at.verify_access_token(_mint(grant_id="g-missing"), resource=RESOURCE)


def test_other_routes_refuse_mcp_tokens(client, grant):
    reply = client.get("/users/me", headers={"Authorization": f"Bearer {_mint()}"})
    assert reply.status_code == 401


def test_the_aws_key_is_read_from_secrets_manager_on_first_use_only(grant):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    previous = keys.current().private_key
    pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    reads = []
    try:
        keys._key = None  # a fresh (cold) process
        keys.configure(settings=Settings.from_env({"MCP_SIGNING_KEY_SECRET_ARN": "arn:aws:secretsmanager:x"}),
                       fetch=lambda arn: reads.append(arn) or pem)
        assert reads == []  # the cold start did not pay for it
        token = _mint()
        assert at.verify_access_token(token, resource=RESOURCE).user_id == "u-1"
        assert reads == ["arn:aws:secretsmanager:x"]
    finally:
        keys.use_key(previous)
