"""Users routes, local-only routes, idempotency keys and the HTTP plumbing, through the app.

One moto DynamoDB and one local-mode app serve the whole module (each test signs in its own
users), and every response any test receives is checked: never a 5xx, never a traceback."""
from __future__ import annotations

import base64
import re
import time
import json
import uuid

import pytest
from flask.testing import FlaskClient

import models
from app import create_app
from app.auth.local_issuer import subject_for_email
from app.config import Settings
from app.core import idempotency
from models.developer_tokens import IdempotencyRecord
from models.groups import Group, Participant
from tests.support import renames
from tests.support.tables import empty_tables, scan_all, shared_moto_tables

STAGE = "test"
TEST_DOMAIN = "integ.tailspend.kinesis.studio"
PROFILE_FIELDS = {"userId", "email", "displayName", "handle", "discoverable",
                  "defaultCurrency", "locale", "createdAt"}
ISO_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


class CheckedClient(FlaskClient):
    """A test client that fails the test on any 5xx or any leaked traceback."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        text = response.get_data(as_text=True)
        assert response.status_code < 500, text
        assert "Traceback" not in text and 'File "' not in text, text
        return response


@pytest.fixture(scope="module")
def moto_db():
    """One moto DynamoDB for the module; yields a raw client and each table's key names."""
    with shared_moto_tables(STAGE) as shared:
        yield shared


@pytest.fixture(autouse=True)
def empty_each_test(moto_db):
    """Each test starts from empty tables (moto copies whole tables on every transaction, so
    accumulated rows would also make the module slow)."""
    empty_tables(*moto_db)


@pytest.fixture(scope="module")
def app(moto_db, tmp_path_factory):
    flask_app = create_app(Settings(stage=STAGE, region="us-east-1", local_mode=True,
                                    data_dir=str(tmp_path_factory.mktemp("users")),
                                    cursor_secret=b"test-cursor-secret"))
    flask_app.test_client_class = CheckedClient
    return flask_app


@pytest.fixture
def client(app):
    return app.test_client()


def unique_email(prefix: str = "user", domain: str = "example.com") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@{domain}"


def assert_error(reply, status: int, code: str) -> dict:
    assert reply.status_code == status, reply.get_data(as_text=True)
    body = reply.get_json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"].get("details", {}), dict)
    return body["error"]


@pytest.fixture
def me(sign_in):
    """A fresh signed-in user: (headers, user_id, email)."""
    email = unique_email("me")
    headers, user_id = sign_in(email, display_name="Ada Lovelace")
    return headers, user_id, email


# -- GET/PATCH /users/me --------------------------------------------------------------------

def test_get_me_returns_exactly_the_documented_profile_fields(client, me):
    headers, user_id, email = me
    reply = client.get("/users/me", headers=headers)
    assert reply.status_code == 200
    body = reply.get_json()
    assert set(body) == PROFILE_FIELDS  # no isTestAccount, no internal attributes
    assert body["userId"] == user_id
    assert body["email"] == email
    assert body["displayName"] == "Ada Lovelace"
    assert body["handle"] is None
    assert body["discoverable"] is False
    assert body["defaultCurrency"] is None
    assert ISO_Z.match(body["createdAt"])


def test_get_me_for_a_test_account_does_not_expose_the_test_flag(client, sign_in):
    headers, _ = sign_in(unique_email("bot", TEST_DOMAIN))
    assert set(client.get("/users/me", headers=headers).get_json()) == PROFILE_FIELDS


def test_patch_me_changes_display_name_and_currency_and_get_reflects_it(client, me):
    headers, user_id, _ = me
    reply = client.patch("/users/me", headers=headers,
                         json={"displayName": "Grace Hopper", "defaultCurrency": "EUR"})
    assert reply.status_code == 200
    body = reply.get_json()
    assert set(body) == PROFILE_FIELDS
    assert (body["userId"], body["displayName"], body["defaultCurrency"]) == (
        user_id, "Grace Hopper", "EUR")
    again = client.get("/users/me", headers=headers).get_json()
    assert (again["displayName"], again["defaultCurrency"]) == ("Grace Hopper", "EUR")


def test_patch_me_accepts_display_names_of_1_and_100_characters(client, me):
    headers = me[0]
    for name in ("x", "y" * 100):
        reply = client.patch("/users/me", headers=headers, json={"displayName": name})
        assert reply.status_code == 200
        assert reply.get_json()["displayName"] == name


@pytest.mark.parametrize("body,field", [
    ({"displayName": ""}, "displayName"),
    ({"displayName": "z" * 101}, "displayName"),
    ({"displayName": "   "}, "displayName"),
    ({"displayName": "\t\n"}, "displayName"),
    ({"displayName": None}, "displayName"),
    ({"displayName": 12.5}, "displayName"),
    ({"displayName": True}, "displayName"),
    ({"displayName": ["Ada"]}, "displayName"),
    ({"defaultCurrency": "eur"}, "defaultCurrency"),
    ({"defaultCurrency": "EURO"}, "defaultCurrency"),
    ({"defaultCurrency": "E1R"}, "defaultCurrency"),
    ({"defaultCurrency": 978}, "defaultCurrency"),
    ({"defaultCurrency": False}, "defaultCurrency"),
    ({"nickname": "Ada"}, "nickname"),
    ({"displayName": "Ada", "email": "evil@example.com"}, "email"),
])
def test_patch_me_rejects_invalid_fields_with_400_naming_the_field(client, me, body, field):
    headers = me[0]
    before = client.get("/users/me", headers=headers).get_json()
    error = assert_error(client.patch("/users/me", headers=headers, json=body), 400,
                         "VALIDATION_ERROR")
    assert field in error["details"], error
    assert client.get("/users/me", headers=headers).get_json() == before  # nothing changed


@pytest.mark.parametrize("raw", ['{"displayName": "Ada"', "{'displayName': 'Ada'}", "nope",
                                 '{"displayName": "Ada"}}', "\xff\xfe"])
def test_patch_me_with_malformed_json_is_400(client, me, raw):
    reply = client.patch("/users/me", headers=me[0], data=raw, content_type="application/json")
    assert_error(reply, 400, "VALIDATION_ERROR")


@pytest.mark.parametrize("raw", ["[]", '["displayName"]', '"Ada"', "42", "null"])
def test_patch_me_with_a_json_body_that_is_not_an_object_is_400(client, me, raw):
    reply = client.patch("/users/me", headers=me[0], data=raw, content_type="application/json")
    assert_error(reply, 400, "VALIDATION_ERROR")


def test_rename_is_mirrored_onto_the_callers_user_participants_only(client, me, sign_in):
    headers, user_id, _ = me
    groups = []
    for name in ("Flat 3B", "Ski trip"):
        reply = client.post("/groups", headers=headers, json={"name": name, "currency": "EUR"})
        assert reply.status_code == 201, reply.get_json()
        groups.append(reply.get_json())
    guest = client.post(f"/groups/{groups[0]['groupId']}/participants", headers=headers,
                        json={"displayName": "Guest Bob"})
    assert guest.status_code == 201, guest.get_json()
    other_headers, _ = sign_in(unique_email("other"), display_name="Other Owner")
    other_group = client.post("/groups", headers=other_headers,
                              json={"name": "Theirs", "currency": "USD"}).get_json()

    assert client.patch("/users/me", headers=headers,
                        json={"displayName": "Ada Renamed"}).status_code == 200
    renames.run_worker()  # the rosters follow through the worker (test_rename_mirror.py)

    for group in groups:
        row = Participant.get(group["groupId"], Participant.sort_key(group["myParticipantId"]))
        assert row.DisplayName == "Ada Renamed"
        roster = client.get(f"/groups/{group['groupId']}/participants",
                            headers=headers).get_json()["items"]
        mine = [p for p in roster if p["participantId"] == group["myParticipantId"]]
        assert [p["displayName"] for p in mine] == ["Ada Renamed"]
    guest_row = Participant.get(groups[0]["groupId"],
                                Participant.sort_key(guest.get_json()["participantId"]))
    assert guest_row.DisplayName == "Guest Bob"
    theirs = Participant.get(other_group["groupId"],
                             Participant.sort_key(other_group["myParticipantId"]))
    assert theirs.DisplayName == "Other Owner"


# -- identities -----------------------------------------------------------------------------

def test_new_user_lists_exactly_the_sign_in_identity(client, me):
    headers, _, email = me
    reply = client.get("/users/me/identities", headers=headers)
    assert reply.status_code == 200
    items = reply.get_json()["items"]
    assert [(i["provider"], i["subject"]) for i in items] == [("local",
                                                               subject_for_email(email))]
    assert ISO_Z.match(items[0]["createdAt"])


def test_linking_an_identity_is_201_and_idempotent_for_the_same_user(client, me):
    headers = me[0]
    subject = "g-" + uuid.uuid4().hex
    first = client.post("/users/me/identities", headers=headers,
                        json={"provider": "google", "subject": subject})
    assert first.status_code == 201
    assert first.get_json()["provider"] == "google"
    assert first.get_json()["subject"] == subject
    again = client.post("/users/me/identities", headers=headers,
                        json={"provider": "google", "subject": subject})
    assert again.status_code == 201
    assert again.get_json() == first.get_json()  # the original link, not a new one
    listed = client.get("/users/me/identities", headers=headers).get_json()["items"]
    assert sorted(i["provider"] for i in listed) == ["google", "local"]


def test_linking_an_identity_owned_by_another_user_is_409_identity_linked(client, me, sign_in):
    subject = "g-" + uuid.uuid4().hex
    assert client.post("/users/me/identities", headers=me[0],
                       json={"provider": "google", "subject": subject}).status_code == 201
    thief_headers, _ = sign_in(unique_email("thief"))
    reply = client.post("/users/me/identities", headers=thief_headers,
                        json={"provider": "google", "subject": subject})
    assert_error(reply, 409, "IDENTITY_LINKED")
    assert [i["provider"] for i in client.get("/users/me/identities",
                                              headers=thief_headers).get_json()["items"]] == [
        "local"]


@pytest.mark.parametrize("provider", ["local", "cognito"])
def test_sign_in_identities_cannot_be_linked_by_hand(client, me, sign_in, provider):
    victim_email = unique_email("victim")
    sign_in(victim_email)
    reply = client.post("/users/me/identities", headers=me[0],
                        json={"provider": provider, "subject": subject_for_email(victim_email)})
    assert_error(reply, 400, "VALIDATION_ERROR")


def test_a_hand_linked_identity_is_unverified_and_cannot_capture_its_owners_sign_in(
        client, me, settings):
    from app.users.provisioning import provision_user

    subject = "g-" + uuid.uuid4().hex
    linked = client.post("/users/me/identities", headers=me[0],
                         json={"provider": "google", "subject": subject})
    assert linked.status_code == 201 and linked.get_json()["verified"] is False
    identities = json.dumps([{"userId": subject, "providerName": "Google"}])
    owner = provision_user(provider="cognito", subject=str(uuid.uuid4()),
                           email=unique_email("owner"), display_name="Owner",
                           identities_attribute=identities,
                           test_domain=settings.test_account_domain)
    assert owner != me[1]
    mine = client.get("/users/me/identities", headers=me[0]).get_json()["items"]
    assert all(i["provider"] != "google" for i in mine)  # the real owner took it over


@pytest.mark.parametrize("body,field", [
    ({"provider": "Google", "subject": "x"}, "provider"),
    ({"provider": "g", "subject": "x"}, "provider"),
    ({"provider": "google#evil", "subject": "x"}, "provider"),
    ({"provider": "google", "subject": ""}, "subject"),
    ({"provider": "google", "subject": "s" * 257}, "subject"),
    ({"provider": "google"}, "subject"),
    ({"subject": "x"}, "provider"),
    ({"provider": "google", "subject": 123}, "subject"),
    ({"provider": "google", "subject": "x", "primary": True}, "primary"),
])
def test_link_identity_validation_errors_are_400(client, me, body, field):
    error = assert_error(client.post("/users/me/identities", headers=me[0], json=body), 400,
                         "VALIDATION_ERROR")
    assert field in error["details"], error


# -- /admin/users ---------------------------------------------------------------------------

@pytest.fixture
def profile_ids(moto_db):
    """Ground truth: every PROFILE row in the table (optionally without test accounts)."""

    def ids(*, include_test: bool) -> set:
        found = set()
        for row in scan_all(moto_db[0], models.physical_name("users")):
            if row["SK"]["S"] != "PROFILE":
                continue
            is_test = row.get("IsTestAccount", {}).get("BOOL", False) or row["Email"][
                "S"].lower().endswith("@" + TEST_DOMAIN)
            if include_test or not is_test:
                found.add(row["UserId"]["S"])
        return found

    return ids


def walk(client, headers, query: str = "", limit: int = 1) -> tuple:
    """Follow nextCursor to the end: (every item in order, number of pages)."""
    items, pages, cursor = [], 0, None
    while True:
        url = f"/admin/users?limit={limit}{query}" + (f"&cursor={cursor}" if cursor else "")
        reply = client.get(url, headers=headers)
        assert reply.status_code == 200, reply.get_json()
        body = reply.get_json()
        assert set(body) == {"items", "nextCursor"}
        items.extend(body["items"])
        pages += 1
        assert len(body["items"]) <= limit
        cursor = body["nextCursor"]
        if cursor is None:
            return items, pages
        assert pages < 500, "pagination does not terminate"


@pytest.fixture
def population(sign_in):
    """A few humans and test accounts, plus an admin to list them."""
    humans = [sign_in(unique_email("human"))[1] for _ in range(3)]
    bots = [sign_in(unique_email("bot", TEST_DOMAIN))[1] for _ in range(2)]
    admin_headers, admin_id = sign_in(unique_email("admin"), admin=True)
    return {"humans": humans, "bots": bots, "admin": admin_headers, "admin_id": admin_id}


def test_admin_users_is_403_for_a_non_admin(client, me):
    assert_error(client.get("/admin/users", headers=me[0]), 403, "FORBIDDEN")
    assert_error(client.get("/admin/users?includeTestAccounts=true", headers=me[0]), 403,
                 "FORBIDDEN")


def test_admin_users_hides_test_accounts_by_default(client, population):
    items, _ = walk(client, population["admin"], limit=100)
    listed = {item["userId"] for item in items}
    assert set(population["humans"]) <= listed
    assert not set(population["bots"]) & listed
    assert all(item["isTestAccount"] is False for item in items)
    assert set(items[0]) == PROFILE_FIELDS | {"isTestAccount"}


def test_admin_users_include_test_accounts_true_lists_them_flagged(client, population):
    items, _ = walk(client, population["admin"], "&includeTestAccounts=true", limit=100)
    flags = {item["userId"]: item["isTestAccount"] for item in items}
    assert all(flags[bot] is True for bot in population["bots"])
    assert all(flags[human] is False for human in population["humans"])


@pytest.mark.parametrize("include", [False, True])
def test_admin_users_limit_1_walks_every_user_exactly_once(client, population, include,
                                                           profile_ids):
    query = "&includeTestAccounts=true" if include else ""
    items, pages = walk(client, population["admin"], query, limit=1)
    ids = [item["userId"] for item in items]
    assert len(ids) == len(set(ids)), "a user was listed twice"
    assert set(ids) == profile_ids(include_test=include)
    assert pages <= len(profile_ids(include_test=True)) + 1


def test_admin_users_default_page_is_at_most_25(client, population, sign_in, profile_ids):
    for _ in range(26 - len(profile_ids(include_test=False))):
        sign_in(unique_email("filler"))
    body = client.get("/admin/users", headers=population["admin"]).get_json()
    assert len(body["items"]) <= 25
    assert body["nextCursor"] is not None


def _first_cursor(client, headers, query="") -> str:
    body = client.get(f"/admin/users?limit=1{query}", headers=headers).get_json()
    assert body["nextCursor"], body
    return body["nextCursor"]


def _flip(cursor: str, index: int) -> str:
    raw = bytearray(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    raw[index] ^= 0x01
    return base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")


@pytest.mark.parametrize("where", ["signature", "payload"])
def test_admin_users_tampered_cursor_is_400(client, population, where):
    cursor = _first_cursor(client, population["admin"])
    tampered = _flip(cursor, 3 if where == "signature" else -3)
    error = assert_error(client.get(f"/admin/users?limit=1&cursor={tampered}",
                                    headers=population["admin"]), 400, "VALIDATION_ERROR")
    assert "cursor" in error["details"]


@pytest.mark.parametrize("cursor", ["abc", "%%%%", "x" * 40, "eyJVc2VySWQiOiJ4In0"])
def test_admin_users_garbage_cursor_is_400(client, population, cursor):
    assert_error(client.get(f"/admin/users?cursor={cursor}", headers=population["admin"]), 400,
                 "VALIDATION_ERROR")


def test_admin_users_cursor_from_the_include_test_accounts_list_is_400_on_the_other(
        client, population):
    with_tests = _first_cursor(client, population["admin"], "&includeTestAccounts=true")
    assert_error(client.get(f"/admin/users?limit=1&cursor={with_tests}",
                            headers=population["admin"]), 400, "VALIDATION_ERROR")
    without = _first_cursor(client, population["admin"])
    assert_error(client.get(f"/admin/users?limit=1&includeTestAccounts=true&cursor={without}",
                            headers=population["admin"]), 400, "VALIDATION_ERROR")


def test_admin_users_cursor_of_another_admin_is_400(client, population, sign_in):
    cursor = _first_cursor(client, population["admin"])
    other_admin, _ = sign_in(unique_email("admin2"), admin=True)
    assert_error(client.get(f"/admin/users?limit=1&cursor={cursor}", headers=other_admin), 400,
                 "VALIDATION_ERROR")


@pytest.mark.parametrize("query,field", [("limit=0", "limit"), ("limit=101", "limit"),
                                         ("limit=ten", "limit"), ("limit=1.5", "limit"),
                                         ("includeTestAccounts=maybe", "includeTestAccounts")])
def test_admin_users_bad_query_parameters_are_400(client, population, query, field):
    error = assert_error(client.get(f"/admin/users?{query}", headers=population["admin"]), 400,
                         "VALIDATION_ERROR")
    assert field in error["details"], error


# -- HTTP plumbing --------------------------------------------------------------------------

def test_body_over_the_cap_is_413_envelope(app, client, me):
    cap = app.extensions["tailspend"].settings.max_body_bytes
    assert cap == 64 * 1024
    big = '{"displayName": "' + "a" * cap + '"}'
    reply = client.patch("/users/me", headers=me[0], data=big, content_type="application/json")
    assert_error(reply, 413, "PAYLOAD_TOO_LARGE")
    reply = client.post("/dev/tokens", data='{"email": "' + "b" * cap + '@example.com"}',
                        content_type="application/json")
    assert_error(reply, 413, "PAYLOAD_TOO_LARGE")


def test_body_just_under_the_cap_is_not_413(app, client, me):
    cap = app.extensions["tailspend"].settings.max_body_bytes
    padded = '{"displayName": "Ada"}' + " " * (cap - 30)
    reply = client.patch("/users/me", headers=me[0], data=padded,
                         content_type="application/json")
    assert reply.status_code == 200


@pytest.mark.parametrize("path", ["/nope", "/users/you", "/users/me/nope", "/admin"])
def test_unknown_path_is_404_envelope(client, me, path):
    assert_error(client.get(path, headers=me[0]), 404, "NOT_FOUND")
    assert_error(client.get(path), 404, "NOT_FOUND")


@pytest.mark.parametrize("method,path,allowed", [
    ("delete", "/health", {"GET"}),
    ("post", "/health", {"GET"}),
    ("put", "/users/me", {"GET", "PATCH"}),
    ("delete", "/users/me/identities", {"GET", "POST"}),
    ("get", "/dev/tokens", {"POST"}),
])
def test_wrong_method_is_405_envelope_with_allow_header(client, me, method, path, allowed):
    reply = getattr(client, method)(path, headers=me[0])
    assert_error(reply, 405, "METHOD_NOT_ALLOWED")
    allow = {m.strip() for m in reply.headers.get("Allow", "").split(",") if m.strip()}
    assert allowed <= allow, reply.headers
    assert method.upper() not in allow


def test_health_is_200_without_auth(client):
    reply = client.get("/health")
    assert reply.status_code == 200
    assert reply.get_json() == {"status": "ok"}


def test_openapi_document_is_served_without_auth_and_lists_the_users_routes(client):
    reply = client.get("/openapi.json")
    assert reply.status_code == 200
    document = reply.get_json()
    assert document["openapi"].startswith("3.")
    for path in ("/health", "/users/me", "/users/me/identities", "/admin/users",
                 "/dev/tokens"):
        assert path in document["paths"], path
    assert set(document["paths"]["/users/me"]) >= {"get", "patch"}


def test_docs_page_is_served_without_auth(client):
    reply = client.get("/docs")
    assert reply.status_code == 200
    assert "text/html" in reply.content_type
    assert "openapi.json" in reply.get_data(as_text=True)


def test_every_response_carries_a_request_id(client):
    assert client.get("/health").headers.get("X-Request-Id")
    # Ours, never the caller's (theirs is logged as client_request_id).
    echoed = client.get("/health", headers={"X-Request-Id": "abc-123"}).headers["X-Request-Id"]
    assert echoed and echoed != "abc-123"


# -- local-only routes ----------------------------------------------------------------------

def test_dev_tokens_same_email_always_maps_to_the_same_user(client):
    email = unique_email("same")
    first = client.post("/dev/tokens", json={"email": email})
    second = client.post("/dev/tokens", json={"email": email, "displayName": "Ignored"})
    third = client.post("/dev/tokens", json={"email": email.upper()})
    assert first.status_code == second.status_code == third.status_code == 201
    ids = {r.get_json()["userId"] for r in (first, second, third)}
    assert len(ids) == 1
    assert set(first.get_json()) == {"accessToken", "userId"}
    me = client.get("/users/me", headers={
        "Authorization": "Bearer " + second.get_json()["accessToken"]}).get_json()
    assert me["userId"] in ids
    assert me["displayName"] == email.split("@")[0]  # the first sign-in named the profile


@pytest.mark.parametrize("body,field", [
    ({"email": "not-an-email"}, "email"),
    ({"email": ""}, "email"),
    ({"email": "a@"}, "email"),
    ({}, "email"),
    ({"email": 42}, "email"),
    ({"email": "x" * 250 + "@example.com"}, "email"),
    ({"email": "ok@example.com", "admin": "yes"}, "admin"),
    ({"email": "ok@example.com", "displayName": ""}, "displayName"),
    ({"email": "ok@example.com", "role": "admin"}, "role"),
])
def test_dev_tokens_invalid_body_is_400(client, body, field):
    error = assert_error(client.post("/dev/tokens", json=body), 400, "VALIDATION_ERROR")
    assert field in error["details"], error


def test_dev_tokens_admin_flag_grants_admin(client):
    admin = client.post("/dev/tokens", json={"email": unique_email("boss"),
                                             "admin": True}).get_json()
    plain = client.post("/dev/tokens", json={"email": unique_email("pleb")}).get_json()
    assert client.get("/admin/users", headers={
        "Authorization": "Bearer " + admin["accessToken"]}).status_code == 200
    assert client.get("/admin/users", headers={
        "Authorization": "Bearer " + plain["accessToken"]}).status_code == 403


def test_local_jwks_serves_only_the_public_key_of_the_issuer(app, client):
    reply = client.get("/.well-known/jwks.json")
    assert reply.status_code == 200
    (key,) = reply.get_json()["keys"]
    assert key["kid"] == app.extensions["tailspend"].issuer.kid
    assert key["kty"] == "RSA" and key["alg"] == "RS256"
    assert not {"d", "p", "q", "dp", "dq", "qi"} & set(key)


@pytest.fixture
def cognito_app(moto_db, tmp_path):
    flask_app = create_app(Settings(stage=STAGE, local_mode=False, data_dir=str(tmp_path),
                                    cognito_user_pool_id="us-east-1_x", cognito_client_id="c"))
    flask_app.test_client_class = CheckedClient
    return flask_app


def test_local_only_routes_are_404_when_not_in_local_mode(cognito_app):
    client = cognito_app.test_client()
    assert_error(client.post("/dev/tokens", json={"email": unique_email()}), 404, "NOT_FOUND")
    assert_error(client.get("/.well-known/jwks.json"), 404, "NOT_FOUND")
    assert "/dev/tokens" not in client.get("/openapi.json").get_json()["paths"]
    assert client.get("/health").status_code == 200


# -- Idempotency-Key on POST /groups --------------------------------------------------------

GROUP = {"name": "Flat 3B", "currency": "EUR"}


def groups_created_by(user_id: str) -> list:
    return list(Group.scan(Group.CreatedBy == user_id))


def post_group(client, headers, key=None, body=None):
    extra = {"Idempotency-Key": key} if key is not None else {}
    return client.post("/groups", headers={**headers, **extra}, json=body or GROUP)


def test_idempotent_replay_returns_the_same_response_and_creates_nothing(client, me):
    headers, user_id, _ = me
    key = "key-" + uuid.uuid4().hex
    first = post_group(client, headers, key)
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    replay = post_group(client, headers, key)
    assert replay.status_code == 201
    assert replay.headers.get("Idempotent-Replayed") == "true"
    assert replay.get_json() == first.get_json()
    assert len(groups_created_by(user_id)) == 1


def test_replay_matches_the_same_json_regardless_of_key_order_and_spacing(client, me):
    headers, user_id, _ = me
    key = "key-" + uuid.uuid4().hex
    first = post_group(client, headers, key)
    replay = client.post("/groups", headers={**headers, "Idempotency-Key": key},
                         data='{ "currency" : "EUR",  "name": "Flat 3B" }',
                         content_type="application/json")
    assert replay.status_code == 201 and replay.headers.get("Idempotent-Replayed") == "true"
    assert replay.get_json() == first.get_json()
    assert len(groups_created_by(user_id)) == 1


def test_same_key_with_a_different_body_is_422_and_creates_nothing(client, me):
    headers, user_id, _ = me
    key = "key-" + uuid.uuid4().hex
    assert post_group(client, headers, key).status_code == 201
    reply = post_group(client, headers, key, {"name": "Other", "currency": "EUR"})
    assert_error(reply, 422, "IDEMPOTENCY_KEY_REUSED")
    assert len(groups_created_by(user_id)) == 1


def test_without_a_key_each_post_creates_a_group(client, me):
    headers, user_id, _ = me
    assert post_group(client, headers).status_code == 201
    assert post_group(client, headers).status_code == 201
    assert len(groups_created_by(user_id)) == 2


def test_idempotency_keys_are_per_caller(client, me, sign_in):
    key = "shared-" + uuid.uuid4().hex
    mine = post_group(client, me[0], key)
    other_headers, other_id = sign_in(unique_email("other"))
    theirs = post_group(client, other_headers, key)
    assert theirs.status_code == 201
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.get_json()["groupId"] != mine.get_json()["groupId"]
    assert theirs.get_json()["createdBy"] == other_id


def test_idempotency_key_of_128_chars_is_accepted_and_129_is_400(client, me):
    headers, user_id, _ = me
    assert post_group(client, headers, "k" * 128).status_code == 201
    error = assert_error(post_group(client, headers, "k" * 129), 400, "VALIDATION_ERROR")
    assert "Idempotency-Key" in error["details"]
    assert len(groups_created_by(user_id)) == 1


def test_empty_idempotency_key_is_400(client, me):
    headers, user_id, _ = me
    assert_error(post_group(client, headers, ""), 400, "VALIDATION_ERROR")
    assert groups_created_by(user_id) == []


def test_in_flight_key_is_409_idempotency_in_progress(client, me):
    headers, user_id, _ = me
    key = "key-" + uuid.uuid4().hex
    fingerprint = idempotency.request_hash("POST", "/groups", b'{"name":"Flat 3B","currency":"EUR"}')
    assert idempotency.begin(IdempotencyRecord.app_credential(user_id), key, fingerprint,
                             owner=user_id) is None
    assert_error(post_group(client, headers, key), 409, "IDEMPOTENCY_IN_PROGRESS")
    assert groups_created_by(user_id) == []


def test_in_flight_key_with_a_different_body_is_422(client, me):
    headers, user_id, _ = me
    key = "key-" + uuid.uuid4().hex
    fingerprint = idempotency.request_hash("POST", "/groups", b'{"name":"X","currency":"EUR"}')
    idempotency.begin(IdempotencyRecord.app_credential(user_id), key, fingerprint,
                             owner=user_id)
    assert_error(post_group(client, headers, key), 422, "IDEMPOTENCY_KEY_REUSED")


def test_in_flight_key_whose_lease_ran_out_is_taken_over(client, me):
    headers, user_id, _ = me
    key = "key-" + uuid.uuid4().hex
    fingerprint = idempotency.request_hash("POST", "/groups", b'{"name":"Flat 3B","currency":"EUR"}')
    credential = IdempotencyRecord.app_credential(user_id)
    idempotency.begin(credential, key, fingerprint, owner=user_id)
    IdempotencyRecord(*IdempotencyRecord.key(credential, key)).update(
        actions=[IdempotencyRecord.LockedUntil.set(int(time.time()) - 5)])
    reply = post_group(client, headers, key)
    assert reply.status_code == 201
    assert len(groups_created_by(user_id)) == 1
    assert post_group(client, headers, key).headers.get("Idempotent-Replayed") == "true"


def test_expired_record_is_claimable_again_and_not_replayed(client, me):
    headers, user_id, _ = me
    key = "key-" + uuid.uuid4().hex
    first = post_group(client, headers, key)
    assert first.status_code == 201
    credential = IdempotencyRecord.app_credential(user_id)
    IdempotencyRecord(*IdempotencyRecord.key(credential, key)).update(
        actions=[IdempotencyRecord.ExpiresAt.set(int(time.time()) - 1)])
    second = post_group(client, headers, key, {"name": "A new one", "currency": "EUR"})
    assert second.status_code == 201
    assert "Idempotent-Replayed" not in second.headers
    assert second.get_json()["groupId"] != first.get_json()["groupId"]
    assert len(groups_created_by(user_id)) == 2
    # the new response is what the key now replays
    replay = post_group(client, headers, key, {"name": "A new one", "currency": "EUR"})
    assert replay.headers.get("Idempotent-Replayed") == "true"
    assert replay.get_json() == second.get_json()


def test_failed_first_attempt_frees_the_key_for_a_corrected_retry(client, me):
    headers, user_id, _ = me
    key = "key-" + uuid.uuid4().hex
    bad = post_group(client, headers, key, {"name": "", "currency": "EUR"})
    assert_error(bad, 400, "VALIDATION_ERROR")
    good = post_group(client, headers, key)
    assert good.status_code == 201
    assert "Idempotent-Replayed" not in good.headers
    assert len(groups_created_by(user_id)) == 1
