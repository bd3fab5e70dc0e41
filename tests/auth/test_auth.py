"""Bearer-token authentication: every way a token can be wrong is a 401 envelope, never a 500.

Tokens are built by hand with PyJWT and the app's own local issuer key, so each test changes
exactly one thing about an otherwise valid token."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid

import jwt
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from moto import mock_aws

import models
from app import create_app
from app.auth.authenticate import Authenticator, IdentityCache
from app.auth.jwks import JwksCache
from app.auth.local_issuer import subject_for_email
from app.config import Settings
from app.errors import Unauthenticated
from app.users.provisioning import provision_user
from models.identities import Identity
from tests.support.tables import create_all_tables

EMAIL = "ada@example.com"
STAGE = "test"

# One spare RSA key for the whole module (generating keys is slow).
OTHER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


# -- helpers -------------------------------------------------------------------------------

def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unsigned(header: dict, claims: dict) -> bytes:
    return (_b64(json.dumps(header).encode()) + "." + _b64(json.dumps(claims).encode())).encode()


def hs256_token(claims: dict, secret: bytes, kid: str) -> str:
    """HS256 by hand: PyJWT refuses to use a PEM public key as an HMAC secret, attackers don't."""
    signing_input = _unsigned({"alg": "HS256", "typ": "JWT", "kid": kid}, claims)
    signature = hmac.new(secret, signing_input, hashlib.sha256).digest()
    return signing_input.decode() + "." + _b64(signature)


def none_token(claims: dict, kid: str) -> str:
    return _unsigned({"alg": "none", "typ": "JWT", "kid": kid}, claims).decode() + "."


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """One moto DynamoDB and one local-mode app for the module: every test here only reads,
    or works on users of its own, so sharing keeps the module fast."""
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        yield create_app(Settings(stage=STAGE, region="us-east-1", local_mode=True,
                                  data_dir=str(tmp_path_factory.mktemp("auth")),
                                  cursor_secret=b"test-cursor-secret"))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def issuer(app):
    return app.extensions["tailspend"].issuer


@pytest.fixture
def user(sign_in):
    """A provisioned user: (user_id, local subject)."""
    _, user_id = sign_in(EMAIL)
    return user_id, subject_for_email(EMAIL)


@pytest.fixture
def claims(issuer, user):
    """A complete, valid claim set for the provisioned user."""
    now = int(time.time())
    return {"sub": user[1], "iss": issuer.issuer, "client_id": issuer.client_id,
            "token_use": "access", "scope": "aws.cognito.signin.user.admin",
            "iat": now, "auth_time": now, "exp": now + 3600, "jti": str(uuid.uuid4()),
            "username": user[1]}


def rs256(issuer, claims: dict, *, key=None, kid=None, algorithm="RS256", headers=None) -> str:
    hdrs = {"kid": issuer.kid if kid is None else kid}
    hdrs.update(headers or {})
    return jwt.encode(claims, key or issuer._key, algorithm=algorithm, headers=hdrs)


def get_me(client, authorization):
    headers = {} if authorization is None else {"Authorization": authorization}
    return client.get("/users/me", headers=headers)


def assert_unauthenticated(reply):
    assert reply.status_code == 401, reply.get_data(as_text=True)
    body = reply.get_json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == "UNAUTHENTICATED"
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert "Traceback" not in reply.get_data(as_text=True)


# -- the baseline ---------------------------------------------------------------------------

def test_valid_local_token_from_issuer_mint_reaches_users_me(client, issuer, user):
    reply = get_me(client, "Bearer " + issuer.mint(user[1], email=EMAIL))
    assert reply.status_code == 200
    assert reply.get_json()["userId"] == user[0]


def test_hand_built_valid_token_is_accepted_so_rejections_below_are_meaningful(
        client, issuer, user, claims):
    reply = get_me(client, "Bearer " + rs256(issuer, claims))
    assert reply.status_code == 200
    assert reply.get_json()["userId"] == user[0]


def test_bearer_scheme_is_case_insensitive(client, issuer, user):
    assert get_me(client, "bearer " + issuer.mint(user[1])).status_code == 200


# -- missing or malformed credentials -------------------------------------------------------

def test_request_without_authorization_header_is_401(client, user):
    assert_unauthenticated(get_me(client, None))


@pytest.mark.parametrize("scheme", ["Basic", "Token", "JWT", "Bearer:"])
def test_non_bearer_scheme_is_401_even_with_a_valid_token(client, issuer, user, scheme):
    assert_unauthenticated(get_me(client, f"{scheme} {issuer.mint(user[1])}"))


def test_bare_token_without_scheme_is_401(client, issuer, user):
    assert_unauthenticated(get_me(client, issuer.mint(user[1])))


@pytest.mark.parametrize("credential", ["", "   ", "garbage", "a.b.c", "eyJhbGciOi.x.y",
                                        "..", "not a token at all", "\u00e9t\u00e9.x.y"])
def test_garbage_bearer_credential_is_401(client, user, credential):
    assert_unauthenticated(get_me(client, "Bearer " + credential))


def test_personal_access_token_shape_is_401_while_pats_are_not_enabled(client, user):
    assert_unauthenticated(get_me(client, "Bearer tsp_" + uuid.uuid4().hex + "_secret"))


# -- key and algorithm ----------------------------------------------------------------------

def test_unknown_kid_is_401(client, issuer, claims):
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, claims, kid="not-our-kid")))


def test_missing_kid_header_is_401(client, issuer, claims):
    token = jwt.encode(claims, issuer._key, algorithm="RS256")  # no kid at all
    assert_unauthenticated(get_me(client, "Bearer " + token))


def test_non_string_kid_is_401(client, issuer, claims):
    signing_input = _unsigned({"alg": "RS256", "typ": "JWT", "kid": 12345}, claims)
    signature = issuer._key.sign(signing_input, padding.PKCS1v15(), hashes.SHA256())
    token = signing_input.decode() + "." + _b64(signature)
    assert_unauthenticated(get_me(client, "Bearer " + token))


def test_token_signed_by_another_rsa_key_under_our_kid_is_401(client, issuer, claims):
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, claims, key=OTHER_KEY)))


def test_hs256_token_signed_with_our_public_key_pem_is_401(client, issuer, claims):
    """The classic algorithm-confusion attack: the public key used as an HMAC secret."""
    public_pem = issuer._key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    assert_unauthenticated(get_me(client, "Bearer " + hs256_token(claims, public_pem, issuer.kid)))


def test_hs256_token_signed_with_our_public_jwk_json_is_401(client, issuer, claims):
    jwk = json.dumps(issuer.jwks()["keys"][0]).encode()
    assert_unauthenticated(get_me(client, "Bearer " + hs256_token(claims, jwk, issuer.kid)))


@pytest.mark.parametrize("secret", [b"secret", b"", b"tailspend-local"])
def test_hs256_token_with_any_shared_secret_is_401(client, issuer, claims, secret):
    assert_unauthenticated(get_me(client, "Bearer " + hs256_token(claims, secret, issuer.kid)))


def test_alg_none_token_is_401(client, issuer, claims):
    assert_unauthenticated(get_me(client, "Bearer " + none_token(claims, issuer.kid)))


@pytest.mark.parametrize("algorithm", ["RS384", "RS512", "PS256"])
def test_other_rsa_algorithms_with_the_right_key_are_401(client, issuer, claims, algorithm):
    """RS256 only, even when the signature itself would verify with our key."""
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, claims, algorithm=algorithm)))


def test_tampered_payload_with_original_signature_is_401(client, issuer, claims):
    token = rs256(issuer, claims)
    header, _, signature = token.split(".")
    forged = dict(claims, sub=str(uuid.uuid4()))
    payload = _b64(json.dumps(forged).encode())
    assert_unauthenticated(get_me(client, f"Bearer {header}.{payload}.{signature}"))


# -- claims ---------------------------------------------------------------------------------

def test_expired_token_is_401(client, issuer, claims):
    now = int(time.time())
    expired = dict(claims, iat=now - 7200, auth_time=now - 7200, exp=now - 300)
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, expired)))


def test_wrong_issuer_is_401(client, issuer, claims):
    wrong = dict(claims, iss="https://cognito-idp.us-east-1.amazonaws.com/us-east-1_evil")
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, wrong)))


def test_wrong_client_id_is_401(client, issuer, claims):
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, dict(claims,
                                                                         client_id="other-app"))))


def test_id_token_is_401(client, issuer, claims):
    id_token = dict(claims, token_use="id")
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, id_token)))


def test_id_token_shaped_with_aud_instead_of_client_id_is_401(client, issuer, claims):
    id_token = dict(claims, token_use="id", aud=claims["client_id"])
    del id_token["client_id"]
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, id_token)))


@pytest.mark.parametrize("claim", ["exp", "iat", "iss", "sub", "token_use", "client_id"])
def test_token_missing_a_required_claim_is_401(client, issuer, claims, claim):
    incomplete = dict(claims)
    del incomplete[claim]
    assert_unauthenticated(get_me(client, "Bearer " + rs256(issuer, incomplete)))


def test_validly_signed_token_for_a_never_provisioned_subject_is_401(client, issuer, user):
    assert_unauthenticated(get_me(client, "Bearer " + issuer.mint(str(uuid.uuid4()))))


def test_deleted_identity_row_revokes_the_token(client, issuer, sign_in):
    email = f"revoked-{uuid.uuid4().hex[:8]}@example.com"
    _, user_id = sign_in(email)  # never authenticated yet, so nothing is cached in-process
    subject = subject_for_email(email)
    token = issuer.mint(subject, email=email)
    identity = Identity.get(Identity.key("local", subject))
    assert identity.UserId == user_id
    identity.delete()
    assert_unauthenticated(get_me(client, "Bearer " + token))


def test_rejections_are_401_on_every_authenticated_route_not_only_users_me(client, user):
    for method, path in [("get", "/users/me/identities"), ("patch", "/users/me"),
                         ("post", "/groups"), ("get", "/admin/users")]:
        reply = getattr(client, method)(path, json={}, headers={"Authorization": "Bearer x"})
        assert_unauthenticated(reply)


# -- JwksCache ------------------------------------------------------------------------------

class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _jwk(key, kid: str) -> dict:
    jwk = RSAAlgorithm.to_jwk(key.public_key(), as_dict=True)
    jwk.update({"kid": kid, "use": "sig", "alg": "RS256"})
    return jwk


class CountingFetch:
    """A JWKS endpoint whose published keys the test can rotate."""

    def __init__(self, keys: list) -> None:
        self.keys = keys
        self.calls = 0

    def __call__(self) -> dict:
        self.calls += 1
        return {"keys": list(self.keys)}


def test_jwks_is_fetched_once_and_then_served_from_cache():
    fetch = CountingFetch([_jwk(OTHER_KEY, "k1")])
    cache = JwksCache(fetch, min_refresh=60, clock=FakeClock())
    assert fetch.calls == 0  # lazy: nothing fetched at construction
    for _ in range(5):
        assert cache.key_for("k1") is not None
    assert fetch.calls == 1


def test_jwks_unknown_kid_refetches_at_most_once_per_min_refresh_window():
    clock = FakeClock()
    fetch = CountingFetch([_jwk(OTHER_KEY, "k1")])
    cache = JwksCache(fetch, min_refresh=60, clock=clock)
    assert cache.key_for("k1") is not None
    assert fetch.calls == 1
    for _ in range(10):  # a flood of unknown kids inside the window costs nothing
        assert cache.key_for("nope") is None
    assert fetch.calls == 1
    clock.now += 59.9
    assert cache.key_for("nope") is None
    assert fetch.calls == 1
    clock.now += 0.2  # the window has passed: exactly one refetch
    assert cache.key_for("nope") is None
    assert fetch.calls == 2
    for _ in range(10):
        assert cache.key_for("other") is None
    assert fetch.calls == 2
    clock.now += 61
    assert cache.key_for("nope") is None
    assert fetch.calls == 3


def test_jwks_known_kid_never_triggers_a_refetch_even_after_the_window():
    clock = FakeClock()
    fetch = CountingFetch([_jwk(OTHER_KEY, "k1")])
    cache = JwksCache(fetch, min_refresh=60, clock=clock)
    cache.key_for("k1")
    clock.now += 3600
    assert cache.key_for("k1") is not None
    assert fetch.calls == 1


def test_jwks_rotated_key_is_found_after_the_window_without_dropping_the_old_one():
    clock = FakeClock()
    fetch = CountingFetch([_jwk(OTHER_KEY, "old")])
    cache = JwksCache(fetch, min_refresh=60, clock=clock)
    assert cache.key_for("old") is not None
    fetch.keys = [_jwk(OTHER_KEY, "old"), _jwk(OTHER_KEY, "new")]  # the issuer rotates
    clock.now += 10
    assert cache.key_for("new") is None  # still inside the window
    clock.now += 60
    found = cache.key_for("new")
    assert found is not None and found.key_id == "new"
    assert cache.key_for("old") is not None
    assert fetch.calls == 2


def test_jwks_fetch_failure_becomes_401_not_500():
    def broken():
        raise OSError("network down")

    cache = JwksCache(broken, min_refresh=60, clock=FakeClock())
    authenticator = Authenticator(jwks=cache, issuer="https://x", client_id="c",
                                  identity_provider="cognito", identities=IdentityCache())
    token = jwt.encode({"sub": "s"}, OTHER_KEY, algorithm="RS256", headers={"kid": "k"})
    with pytest.raises(Unauthenticated):
        authenticator.authenticate("Bearer " + token)


# -- Cognito mode ---------------------------------------------------------------------------

POOL_ID = "us-east-1_TestPool"
CLIENT_ID = "4q8tspexampleclient0000000"
COGNITO_KID = "cognito-kid-1"


@pytest.fixture
def cognito_settings(tmp_path):
    return Settings(stage="test", local_mode=False, cognito_user_pool_id=POOL_ID,
                    cognito_client_id=CLIENT_ID, data_dir=str(tmp_path))


@pytest.fixture
def cognito_claims(cognito_settings):
    def build(sub: str, **extra) -> dict:
        now = int(time.time())
        claims = {"sub": sub, "iss": cognito_settings.issuer, "client_id": CLIENT_ID,
                  "token_use": "access", "scope": "aws.cognito.signin.user.admin",
                  "iat": now, "auth_time": now, "exp": now + 3600,
                  "jti": str(uuid.uuid4()), "username": sub}
        claims.update(extra)
        return claims
    return build


def cognito_token(claims: dict) -> str:
    return jwt.encode(claims, OTHER_KEY, algorithm="RS256", headers={"kid": COGNITO_KID})


def _provision(sub: str, email: str) -> str:
    return provision_user(provider="cognito", subject=sub, email=email, display_name=None,
                          test_domain="integ.tailspend.kinesis.studio")


def test_cognito_authenticator_maps_cognito_sub_to_user_and_reads_admin_group(
        app, cognito_settings, cognito_claims):
    fetch = CountingFetch([_jwk(OTHER_KEY, COGNITO_KID)])
    authenticator = Authenticator(jwks=JwksCache(fetch), issuer=cognito_settings.issuer,
                                  client_id=CLIENT_ID, identity_provider="cognito",
                                  identities=IdentityCache())
    sub = str(uuid.uuid4())
    user_id = _provision(sub, "grace@example.com")

    plain = authenticator.authenticate("Bearer " + cognito_token(cognito_claims(sub)))
    assert plain.user_id == user_id
    assert plain.identity_key == f"cognito#{sub}"
    assert plain.is_admin is False

    admin = authenticator.authenticate("Bearer " + cognito_token(
        cognito_claims(sub, **{"cognito:groups": ["staff", "admin"]})))
    assert admin.user_id == user_id and admin.is_admin is True

    other_groups = authenticator.authenticate("Bearer " + cognito_token(
        cognito_claims(sub, **{"cognito:groups": ["administrators"]})))
    assert other_groups.is_admin is False
    assert fetch.calls == 1


def test_cognito_authenticator_rejects_a_local_subject_mapping(app, cognito_settings,
                                                               cognito_claims):
    """A ``local#<sub>`` identity must not authenticate a Cognito token with the same sub."""
    authenticator = Authenticator(jwks=JwksCache(lambda: {"keys": [_jwk(OTHER_KEY, COGNITO_KID)]}),
                                  issuer=cognito_settings.issuer, client_id=CLIENT_ID,
                                  identity_provider="cognito", identities=IdentityCache())
    sub = str(uuid.uuid4())
    provision_user(provider="local", subject=sub, email="l@example.com", display_name=None,
                   test_domain="integ.tailspend.kinesis.studio")
    with pytest.raises(Unauthenticated):
        authenticator.authenticate("Bearer " + cognito_token(cognito_claims(sub)))


def test_cognito_mode_app_verifies_pool_tokens_against_the_pool_jwks(
        app, cognito_settings, cognito_claims, monkeypatch):
    """The whole app in Cognito mode, with the JWKS download replaced by a fake."""
    fetched_urls = []
    fetch = CountingFetch([_jwk(OTHER_KEY, COGNITO_KID)])

    def fake_http_fetch(url, timeout=3.0):
        fetched_urls.append(url)
        return fetch

    monkeypatch.setattr("app.factory.http_fetch", fake_http_fetch)
    cognito_app = create_app(cognito_settings)
    client = cognito_app.test_client()
    assert fetched_urls == [f"https://cognito-idp.us-east-1.amazonaws.com/{POOL_ID}"
                            "/.well-known/jwks.json"]

    sub = str(uuid.uuid4())
    user_id = _provision(sub, "grace@example.com")
    reply = client.get("/users/me", headers={"Authorization": "Bearer " + cognito_token(
        cognito_claims(sub))})
    assert reply.status_code == 200
    assert reply.get_json()["userId"] == user_id

    # admin comes only from the cognito:groups claim
    plain = {"Authorization": "Bearer " + cognito_token(cognito_claims(sub))}
    admin = {"Authorization": "Bearer " + cognito_token(
        cognito_claims(sub, **{"cognito:groups": ["admin"]}))}
    assert client.get("/admin/users", headers=plain).status_code == 403
    assert client.get("/admin/users", headers=admin).status_code == 200

    # a local-issuer style token (other issuer) is refused by a Cognito-mode app
    local_style = cognito_claims(sub, iss="https://issuer.tailspend.local")
    assert_unauthenticated(client.get("/users/me", headers={
        "Authorization": "Bearer " + cognito_token(local_style)}))
    # the pool's sub without a cognito# identity row is not an account
    assert_unauthenticated(client.get("/users/me", headers={
        "Authorization": "Bearer " + cognito_token(cognito_claims(str(uuid.uuid4())))}))
    assert fetch.calls == 1
