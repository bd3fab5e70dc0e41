"""Token service on moto: hashing, listing, revocation bound, expiry, LastUsedAt throttling."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.config import Settings
from app.errors import NotFound, Unauthenticated
from app.developer import tokens
from app.developer.verify import CACHE_SECONDS, TokenVerifier
from models.developer_tokens import AccessToken
from models.users import Profile

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now, self.mono = T0, 1000.0

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self.mono += seconds


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture(autouse=True)
def owner(request):
    """u-1's profile: a token is minted and accepted only for a live account."""
    if "app" in request.fixturenames:
        request.getfixturevalue("app")
        Profile("u-1", "PROFILE", Email="u1@example.com", DisplayName="U").save()


@pytest.fixture
def verifier(app, clock):
    return TokenVerifier(monotonic=lambda: clock.mono, clock=lambda: clock.now)


def _mint(user="u-1", scopes=("groups:read",), days=30, clock=None):
    return tokens.create_token(user, name="ci", scopes=list(scopes), expires_in_days=days,
                               clock=(lambda: clock.now) if clock else tokens._utcnow)


def test_only_an_hmac_of_the_secret_is_stored(app):
    created = _mint()
    token_id, secret = created["token"][4:40], created["token"][41:]
    row = AccessToken.get(token_id, "TOKEN")

    assert created["token"] == f"tsp_{token_id}_{secret}" and len(secret) == 43  # 256 bits
    assert secret not in row.SecretHash and row.SecretHash.startswith("hmac-sha256:v1:")
    assert "token" not in tokens.list_tokens("u-1")[0]


def test_a_stolen_hash_is_not_a_token(app, verifier):
    created = _mint()
    token_id = created["tokenId"]
    stolen = AccessToken.get(token_id, "TOKEN").SecretHash

    for forged in (f"tsp_{token_id}_{stolen}", f"tsp_{token_id}_{stolen[-43:]}"):
        with pytest.raises(Unauthenticated):
            verifier.verify(forged)
    assert verifier.verify(created["token"]).user_id == "u-1"


def test_list_is_newest_first_and_never_reads_the_hash(app, clock):
    for _ in range(3):
        _mint(clock=clock)
        clock.advance(1)
    listed = tokens.list_tokens("u-1", clock=lambda: clock.now)

    assert [t["createdAt"] for t in listed] == sorted((t["createdAt"] for t in listed), reverse=True)
    assert all(row.attribute_values.get("SecretHash") is None for row in AccessToken.for_owner("u-1"))


def test_revoke_is_owner_only_and_idempotent(app):
    created = _mint()
    with pytest.raises(NotFound):
        tokens.revoke_token("someone-else", created["tokenId"])
    tokens.revoke_token("u-1", created["tokenId"])
    tokens.revoke_token("u-1", created["tokenId"])
    with pytest.raises(NotFound):
        tokens.revoke_token("u-1", "00000000-0000-4000-8000-000000000000")
    assert tokens.list_tokens("u-1")[0]["status"] == "REVOKED"


def test_a_revoked_token_stops_within_the_cache_bound_on_another_instance(app, verifier, clock):
    created = _mint(clock=clock)
    verifier.verify(created["token"])  # warm: cached on this "other" instance
    tokens.revoke_token("u-1", created["tokenId"])

    clock.advance(CACHE_SECONDS - 0.5)
    verifier.verify(created["token"])  # still inside the documented bound
    clock.advance(1)
    with pytest.raises(Unauthenticated):
        verifier.verify(created["token"])


def test_evict_stops_a_revoked_token_at_once(app, verifier):
    created = _mint()
    verifier.verify(created["token"])
    tokens.revoke_token("u-1", created["tokenId"])
    verifier.evict(created["tokenId"])
    with pytest.raises(Unauthenticated):
        verifier.verify(created["token"])


def test_expiry_is_enforced_in_code_even_from_the_cache(app, verifier, clock):
    created = _mint(days=1, clock=clock)
    verifier.verify(created["token"])
    clock.now += timedelta(days=1)  # wall clock only: the cached row is still fresh
    with pytest.raises(Unauthenticated):
        verifier.verify(created["token"])


def test_last_used_is_written_at_most_once_a_minute(app, clock):
    created = _mint(clock=clock)
    seen = []
    for _step in range(5):  # two instances per step, steps 20 s apart
        for instance in (TokenVerifier(monotonic=lambda: clock.mono, clock=lambda: clock.now),) * 2:
            instance.verify(created["token"])
        seen.append(AccessToken.get(created["tokenId"], "TOKEN").LastUsedAt)
        clock.advance(20)

    assert seen[:4] == [tokens.iso(T0)] * 4  # 0, 20, 40 and 60 s: not older than a minute
    assert seen[4] == tokens.iso(T0 + timedelta(seconds=80))


def test_unknown_scope_is_refused(app):
    from app.errors import Invalid
    with pytest.raises(Invalid):
        _mint(scopes=("admin",))


def test_an_app_built_without_a_pepper_source_keeps_the_loaded_pepper(app):
    from app.config import Settings
    from app import create_app
    created = _mint()
    create_app(Settings(stage="test", region="us-east-1", cursor_secret=b"x"))  # not local, no env

    assert TokenVerifier().verify(created["token"]).user_id == "u-1"


def test_in_aws_the_pepper_comes_from_secrets_manager_once(app, aws):  # app: the session pepper to restore
    import boto3
    from app.developer import pepper
    saved = pepper.get()
    arn = boto3.client("secretsmanager", region_name="us-east-1").create_secret(
        Name="tailspend-test/token-pepper", SecretString="p" * 64)["ARN"]
    try:
        pepper.configure(settings=Settings.from_env({"TOKEN_PEPPER_SECRET_ARN": arn}))
        assert pepper.get() == b"p" * 64
    finally:
        pepper.use(saved)  # the session app's pepper (random bytes, not an env string)
