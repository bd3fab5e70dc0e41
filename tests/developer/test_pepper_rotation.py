"""Rotating the PAT pepper (Secrets Manager on moto) without killing every token: a token
hashed before the rotation keeps working while its pepper is in the ring, and stops when the
ring drops it. The secret's plain single-value form (every secret made before rings) still works."""
from __future__ import annotations

import json
import secrets

import boto3
import pytest

from app.config import Settings
from app.errors import Unauthenticated
from app.core import keyring
from app.developer import pepper, tokens
from app.developer.verify import TokenVerifier
from models.developer_tokens import AccessToken
from models.users import Profile


@pytest.fixture
def secret(app):
    """The pepper secret as today's template makes it (a plain random string), and a way to
    start a fresh container on it; the session's pepper comes back afterwards."""
    saved = pepper.current()
    sm = boto3.client("secretsmanager", region_name="us-east-1")
    old = secrets.token_urlsafe(48)
    arn = sm.create_secret(Name="tailspend-test/token-pepper", SecretString=old)["ARN"]

    class Secret:
        v1 = old

        @staticmethod
        def put(value) -> None:
            sm.put_secret_value(SecretId=arn, SecretString=value if isinstance(value, str)
                                else json.dumps(value))

        @staticmethod
        def new_container() -> None:
            pepper.configure(settings=Settings.from_env({"TOKEN_PEPPER_SECRET_ARN": arn}))

    Secret.new_container()
    # The token's owner is a live account: tokens are minted and verified only for those.
    Profile(*Profile.key("u-1"), Email="u-1@example.com", DisplayName="U").save()
    yield Secret
    pepper.use(saved[1])


def _mint() -> str:
    return tokens.create_token("u-1", name="ci", scopes=["groups:read"],
                               expires_in_days=30)["token"]


def _works(token: str) -> bool:
    try:
        return TokenVerifier().verify(token).user_id == "u-1"
    except Unauthenticated:
        return False


def _hash_of(token: str) -> str:
    return AccessToken.get(tokens.parse(token).token_id, "TOKEN").SecretHash


def test_a_token_from_before_the_rotation_works_until_its_pepper_is_dropped(secret):
    before = _mint()
    assert _hash_of(before).startswith("hmac-sha256:v1:")  # a plain secret is pepper v1
    v2 = secrets.token_urlsafe(48)
    # Step 1: the new pepper is listed, not yet used: every container learns it first.
    secret.put({"current": "v1", "keys": {"v1": secret.v1, "v2": v2}})
    secret.new_container()
    assert _works(before) and _hash_of(_mint()).startswith("hmac-sha256:v1:")
    # Step 2: the new pepper is current: new tokens use it, old ones still verify.
    secret.put({"current": "v2", "keys": {"v1": secret.v1, "v2": v2}})
    secret.new_container()
    after = _mint()
    assert _hash_of(after).startswith("hmac-sha256:v2:")
    assert _works(before) and _works(after)
    # Step 3: the old pepper is dropped: what it hashed stops working, nothing else does.
    secret.put({"current": "v2", "keys": {"v2": v2}})
    secret.new_container()
    assert not _works(before) and _works(after)


def test_a_warm_container_follows_the_rotation_within_the_refresh_interval(secret):
    clock = [0.0]
    source = keyring.Refreshing(lambda: keyring.parse(
        boto3.client("secretsmanager", region_name="us-east-1").get_secret_value(
            SecretId="tailspend-test/token-pepper")["SecretString"], pepper.PLAIN_KID),
        monotonic=lambda: clock[0])
    pepper._install_ring(source.get())
    pepper._source = source
    before = _mint()
    v2 = secrets.token_urlsafe(48)
    secret.put({"current": "v2", "keys": {"v1": secret.v1, "v2": v2}})
    assert _hash_of(_mint()).startswith("hmac-sha256:v1:")  # not re-read yet
    clock[0] += keyring.REFRESH_S
    assert _hash_of(_mint()).startswith("hmac-sha256:v2:") and _works(before)


def test_a_failed_re_read_keeps_the_peppers_we_have():
    clock, calls = [0.0], []

    def read():
        calls.append(1)
        if len(calls) > 1:
            raise RuntimeError("Secrets Manager unavailable")
        return "value"

    source = keyring.Refreshing(read, monotonic=lambda: clock[0])
    assert source.get() == "value"
    clock[0] += keyring.REFRESH_S
    assert source.get() == "value" and len(calls) == 2
    assert source.get() == "value" and len(calls) == 2  # retried only after RETRY_S
    with pytest.raises(RuntimeError):
        keyring.Refreshing(lambda: (_ for _ in ()).throw(RuntimeError("no"))).get()


@pytest.mark.parametrize("bad", [
    {"current": "v3", "keys": {"v1": "x" * 40}},
    {"current": "v1", "keys": {}},
    {"current": "v:1", "keys": {"v:1": "x" * 40}},
])
def test_a_malformed_ring_is_refused_loudly(bad):
    with pytest.raises(ValueError):
        keyring.parse(json.dumps(bad), "v1")


def test_a_short_pepper_in_a_ring_is_refused(secret):
    secret.put({"current": "v2", "keys": {"v1": secret.v1, "v2": "short"}})
    with pytest.raises(RuntimeError):
        secret.new_container()
