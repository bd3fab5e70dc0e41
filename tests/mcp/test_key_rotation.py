"""Rotating the MCP signing key (Secrets Manager on moto): the JWKS lists both keys with their
kids, new tokens use the current kid, a token minted before the rotation keeps verifying while
its key is in the ring and stops when the ring drops it. A plain PEM secret still works."""
from __future__ import annotations

import json

import boto3
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from app.config import Settings
from app.errors import Unauthenticated
from app.oauth import access_tokens as at
from app.oauth import keys
from tests.mcp.test_oauth_access_tokens import RESOURCE, _mint, grant  # noqa: F401


def _pem() -> str:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()


@pytest.fixture
def secret(grant):
    previous = keys.current().private_key
    sm = boto3.client("secretsmanager", region_name="us-east-1")
    old = _pem()
    arn = sm.create_secret(Name="tailspend-test/mcp-key", SecretString=old)["ARN"]

    class Secret:
        k1 = old

        @staticmethod
        def put(value) -> None:
            sm.put_secret_value(SecretId=arn, SecretString=json.dumps(value))

        @staticmethod
        def new_container() -> None:
            keys.configure(settings=Settings.from_env({"MCP_SIGNING_KEY_SECRET_ARN": arn}))

    Secret.new_container()
    yield Secret
    keys.use_key(previous)


def _works(token: str) -> bool:
    try:
        return at.verify_access_token(token, resource=RESOURCE).user_id == "u-1"
    except Unauthenticated:
        return False


def _kid(token: str) -> str:
    return jwt.get_unverified_header(token)["kid"]


def test_a_token_from_before_the_rotation_works_until_its_key_is_dropped(secret):
    before = _mint()
    assert _kid(before).startswith("mcp-")  # a plain PEM: its kid derived from the key
    k2 = _pem()
    secret.put({"current": "k1", "keys": {"k1": secret.k1, "k2": k2}})  # listed, not used
    secret.new_container()
    assert _works(before) and {k["kid"] for k in keys.jwks()["keys"]} == {"k1", "k2"}
    secret.put({"current": "k2", "keys": {"k1": secret.k1, "k2": k2}})
    secret.new_container()
    after = _mint()
    assert _kid(after) == "k2" and keys.jwks()["keys"][0]["kid"] == "k2"
    assert _works(before) and _works(after)
    secret.put({"current": "k2", "keys": {"k2": k2}})
    secret.new_container()
    assert not _works(before) and _works(after)
    assert [k["kid"] for k in keys.jwks()["keys"]] == ["k2"]


def test_the_jwks_verifies_the_tokens(secret):
    secret.put({"current": "k2", "keys": {"k1": secret.k1, "k2": _pem()}})
    secret.new_container()
    token = _mint()
    jwk = next(k for k in keys.jwks()["keys"] if k["kid"] == _kid(token))
    public = jwt.PyJWK(jwk).key
    claims = jwt.decode(token, public, algorithms=["RS256"], audience=RESOURCE)
    assert claims["sub"] == "u-1"
    assert all("d" not in k and "p" not in k for k in keys.jwks()["keys"])  # public halves only
