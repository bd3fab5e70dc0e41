"""Atomic signup: profile and identity rows appear together or not at all, replays are harmless.

One moto DynamoDB serves the module and every test starts from empty tables, so row counts
are absolute."""
from __future__ import annotations

import copy
import importlib
import json
import re
import uuid

import pytest

import models
from app.errors import Conflict
from app.users import provisioning
from app.users.provisioning import provision_user, upstream_identities
from app.users.schemas import AdminUserSchema
from app.users.profiles import list_users
from app.local.triggers import canned_event
from models.identities import Identity
from models.users import Profile
from tests.support.tables import empty_tables, scan_all, shared_moto_tables
from tests.support.lambda_context import lambda_context

STAGE = "test"
TEST_DOMAIN = "integ.tailspend.kinesis.studio"
UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
GOOGLE_IDENTITIES = json.dumps([{"userId": "1234567890", "providerName": "Google",
                                 "providerType": "Google", "issuer": None, "primary": True,
                                 "dateCreated": 1700000000000}])


# The raw client of the module's moto DynamoDB (one client, kept warm: creating botocore
# clients is what makes moto tests slow).
_raw: dict = {}


@pytest.fixture(scope="module")
def dynamodb():
    """One moto DynamoDB for the module, tables created once."""
    with shared_moto_tables(STAGE) as (client, key_names):
        _raw["client"] = client
        yield key_names
        _raw.clear()


@pytest.fixture
def db(dynamodb):
    """Every table emptied, so row counts in a test are absolute."""
    _point_models_at_moto()
    empty_tables(_raw["client"], dynamodb)
    return STAGE


def _point_models_at_moto() -> None:
    """Re-point the models only when something (a handler import) moved them: reconfiguring
    drops every cached connection, and new botocore clients are what makes tests slow."""
    if models.base.settings() != {"stage": STAGE, "region": "us-east-1", "host": None}:
        models.configure(stage=STAGE, region="us-east-1", host=None)




def raw_rows(table: str) -> list:
    return scan_all(_raw["client"], models.physical_name(table))


def identity_map() -> dict:
    """IdentityKey -> UserId over every row of the Identities table."""
    return {row["IdentityKey"]["S"]: row["UserId"]["S"] for row in raw_rows("identities")}


def profiles() -> dict:
    """UserId -> raw PROFILE item."""
    return {row["UserId"]["S"]: row for row in raw_rows("users") if row["SK"]["S"] == "PROFILE"}


def provision(sub: str, email: str = "ada@example.com", *, name: str | None = "Ada Lovelace",
              identities: str | None = None, provider: str = "cognito") -> str:
    return provision_user(provider=provider, subject=sub, email=email, display_name=name,
                          identities_attribute=identities, test_domain=TEST_DOMAIN)


# -- first sign-in --------------------------------------------------------------------------

def test_first_sign_in_writes_one_profile_and_the_cognito_identity(db):
    sub = str(uuid.uuid4())
    user_id = provision(sub)
    assert UUID4.match(user_id)
    assert identity_map() == {f"cognito#{sub}": user_id}
    rows = raw_rows("users")
    assert len(rows) == 1
    profile = rows[0]
    assert profile["UserId"]["S"] == user_id and profile["SK"]["S"] == "PROFILE"
    assert profile["EntityType"]["S"] == "PROFILE"
    assert profile["Email"]["S"] == "ada@example.com"
    assert profile["DisplayName"]["S"] == "Ada Lovelace"
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", profile["CreatedAt"]["S"])
    identity = Identity.get(f"cognito#{sub}")
    assert (identity.Provider, identity.Subject, identity.UserId) == ("cognito", sub, user_id)


def test_first_federated_sign_in_also_writes_the_google_anchor_for_the_same_user(db):
    sub = str(uuid.uuid4())
    user_id = provision(sub, identities=GOOGLE_IDENTITIES)
    assert identity_map() == {f"cognito#{sub}": user_id, "google#1234567890": user_id}
    anchor = Identity.get("google#1234567890")
    assert (anchor.Provider, anchor.Subject) == ("google", "1234567890")
    assert len(profiles()) == 1


@pytest.mark.parametrize("provider_name,token", [("Google", "google"),
                                                 ("SignInWithApple", "apple"),
                                                 ("Facebook", "facebook"),
                                                 ("LoginWithAmazon", "amazon")])
def test_cognito_provider_names_map_to_lowercase_anchor_providers(provider_name, token):
    attribute = json.dumps([{"userId": "abc", "providerName": provider_name}])
    assert upstream_identities(attribute) == [(token, "abc")]


@pytest.mark.parametrize("attribute", [None, "", "not json", "{}", "42", "[1, null]",
                                       '[{"providerName": "Google"}]',
                                       '[{"userId": "x", "providerName": ""}]'])
def test_unusable_identities_attribute_yields_no_anchors(attribute):
    assert upstream_identities(attribute) == []


def test_malformed_identities_attribute_still_provisions_the_cognito_identity(db):
    sub = str(uuid.uuid4())
    user_id = provision(sub, identities="{broken")
    assert identity_map() == {f"cognito#{sub}": user_id}


def test_missing_display_name_falls_back_to_the_email_local_part(db):
    user_id = provision(str(uuid.uuid4()), "grace.hopper@example.com", name=None)
    assert profiles()[user_id]["DisplayName"]["S"] == "grace.hopper"


def test_overlong_display_name_is_cut_to_100_characters(db):
    user_id = provision(str(uuid.uuid4()), name="x" * 300)
    assert profiles()[user_id]["DisplayName"]["S"] == "x" * 100


# -- replays and returning users ------------------------------------------------------------

def test_replayed_sign_in_returns_the_same_user_and_writes_nothing(db):
    sub = str(uuid.uuid4())
    first = provision(sub, identities=GOOGLE_IDENTITIES)
    users_before, identities_before = raw_rows("users"), raw_rows("identities")
    for _ in range(3):
        assert provision(sub, identities=GOOGLE_IDENTITIES) == first
    assert raw_rows("users") == users_before  # not even CreatedAt/UpdatedAt rewritten
    assert raw_rows("identities") == identities_before


def test_returning_user_with_new_pool_sub_is_linked_through_the_known_google_anchor(db):
    old_sub, new_sub = str(uuid.uuid4()), str(uuid.uuid4())
    user_id = provision(old_sub, identities=GOOGLE_IDENTITIES)
    profile_before = profiles()[user_id]

    again = provision(new_sub, "ada.new@example.com", name="Someone Else",
                      identities=GOOGLE_IDENTITIES)

    assert again == user_id
    assert identity_map() == {f"cognito#{old_sub}": user_id, f"cognito#{new_sub}": user_id,
                              "google#1234567890": user_id}
    assert profiles() == {user_id: profile_before}  # no second profile, nothing overwritten
    # and a replay of the returning sign-in is harmless too
    assert provision(new_sub, identities=GOOGLE_IDENTITIES) == user_id
    assert len(raw_rows("identities")) == 3


def test_same_email_without_a_shared_anchor_is_a_separate_account(db):
    """E-mail is not an identity: linking by it would let anyone claim an account."""
    first = provision(str(uuid.uuid4()), "ada@example.com")
    second = provision(str(uuid.uuid4()), "ada@example.com")
    assert first != second
    assert len(profiles()) == 2


# -- atomicity ------------------------------------------------------------------------------

def test_failed_profile_condition_writes_no_identity_rows_and_retry_creates_a_fresh_user(
        db, monkeypatch):
    existing_sub = str(uuid.uuid4())
    existing = provision(existing_sub, "first@example.com", name="First")
    existing_profile = profiles()[existing]
    fresh_ids = iter([existing, str(uuid.uuid4())])  # first attempt collides with `existing`
    monkeypatch.setattr(provisioning, "new_id", lambda: next(fresh_ids))

    sub = str(uuid.uuid4())
    user_id = provision(sub, "second@example.com", name="Second", identities=GOOGLE_IDENTITIES)

    assert user_id != existing
    assert profiles()[existing] == existing_profile  # the collision overwrote nothing
    assert profiles()[user_id]["Email"]["S"] == "second@example.com"
    assert identity_map() == {f"cognito#{existing_sub}": existing,
                              f"cognito#{sub}": user_id, "google#1234567890": user_id}


def test_profile_condition_failing_on_every_attempt_raises_and_leaves_no_orphan_rows(
        db, monkeypatch):
    existing_sub = str(uuid.uuid4())
    existing = provision(existing_sub, "first@example.com")
    users_before = raw_rows("users")
    monkeypatch.setattr(provisioning, "new_id", lambda: existing)

    with pytest.raises(Conflict) as raised:
        provision(str(uuid.uuid4()), "second@example.com", identities=GOOGLE_IDENTITIES)

    assert raised.value.code == "PROVISIONING_RACE"
    assert identity_map() == {f"cognito#{existing_sub}": existing}  # no half-written identities
    assert raw_rows("users") == users_before

    monkeypatch.undo()  # the client retries once the race is over
    sub = str(uuid.uuid4())
    user_id = provision(sub, "second@example.com", identities=GOOGLE_IDENTITIES)
    assert identity_map() == {f"cognito#{existing_sub}": existing, f"cognito#{sub}": user_id,
                              "google#1234567890": user_id}
    assert len(profiles()) == 2


def test_anchor_claimed_concurrently_cancels_the_whole_signup_and_links_instead(
        db, monkeypatch):
    """The anchor appears between our read and our write: the profile must not be written."""
    racer = provision(str(uuid.uuid4()), identities=GOOGLE_IDENTITIES)
    profiles_before = profiles()
    real_user_of = provisioning._user_of
    hidden = {"google#1234567890": 1}  # the first read misses the racer's anchor

    def stale_user_of(key, **kwargs):
        if hidden.get(key):
            hidden[key] -= 1
            return None
        return real_user_of(key, **kwargs)

    monkeypatch.setattr(provisioning, "_user_of", stale_user_of)
    sub = str(uuid.uuid4())
    user_id = provision(sub, identities=GOOGLE_IDENTITIES)

    assert hidden["google#1234567890"] == 0  # the stale read really happened
    assert user_id == racer
    assert profiles() == profiles_before  # no orphan profile from the cancelled attempt
    assert identity_map()[f"cognito#{sub}"] == racer


def test_request_identity_claimed_concurrently_resolves_to_the_winner(db, monkeypatch):
    sub = str(uuid.uuid4())
    winner = provision(sub)
    real_user_of = provisioning._user_of
    calls = {"n": 0}

    def first_read_stale(key, **kwargs):
        calls["n"] += 1
        return None if calls["n"] == 1 else real_user_of(key, **kwargs)

    monkeypatch.setattr(provisioning, "_user_of", first_read_stale)
    assert provision(sub) == winner
    assert len(profiles()) == 1
    assert identity_map() == {f"cognito#{sub}": winner}


# -- test accounts --------------------------------------------------------------------------

@pytest.mark.parametrize("email", [f"bot-001@{TEST_DOMAIN}", f"Bot-002@{TEST_DOMAIN.upper()}"])
def test_test_domain_email_stamps_is_test_account_true(db, email):
    user_id = provision(str(uuid.uuid4()), email)
    assert profiles()[user_id]["IsTestAccount"] == {"BOOL": True}


@pytest.mark.parametrize("email", ["ada@example.com", f"bot@evil{TEST_DOMAIN}",
                                   f"bot@{TEST_DOMAIN}.example.com",
                                   f"{TEST_DOMAIN}@example.com"])
def test_other_emails_have_no_is_test_account_attribute_at_all(db, email):
    user_id = provision(str(uuid.uuid4()), email)
    assert "IsTestAccount" not in profiles()[user_id]


def test_list_users_hides_stamped_test_accounts_unless_asked(db):
    human = provision(str(uuid.uuid4()), "human@example.com")
    stamped = provision(str(uuid.uuid4()), f"bot@{TEST_DOMAIN}")

    def listed(include: bool) -> dict:
        page = list_users(include_test_accounts=include, limit=100, cursor=None,
                          scope=f"admin-users:{include}:x")
        return {item["userId"]: item["isTestAccount"]
                for item in AdminUserSchema(many=True).dump(page.items)}

    assert listed(False) == {human: False}
    assert listed(True) == {human: False, stamped: True}


# -- the Cognito trigger handler ------------------------------------------------------------

@pytest.fixture
def handler(db):
    """The provisioning Lambda module; its import-time models.configure is re-pointed here."""
    module = importlib.import_module("app.handlers.provisioning")
    _point_models_at_moto()
    return module.lambda_handler


def invoke(handler, name: str) -> tuple:
    event = canned_event(name)
    original = copy.deepcopy(event)
    returned = handler(event, lambda_context())
    return returned, original


def test_post_confirmation_handler_returns_the_event_and_provisions_the_user(handler):
    returned, original = invoke(handler, "cognito_post_confirmation.json")
    assert returned == original
    sub = original["request"]["userAttributes"]["sub"]
    ids = identity_map()
    assert list(ids) == [f"cognito#{sub}"]
    profile = profiles()[ids[f"cognito#{sub}"]]
    assert profile["Email"]["S"] == "ada@example.com"
    assert profile["DisplayName"]["S"] == "Ada Lovelace"
    assert "IsTestAccount" not in profile


def test_post_confirmation_replay_and_later_post_authentication_change_nothing(handler):
    invoke(handler, "cognito_post_confirmation.json")
    users_before, identities_before = raw_rows("users"), raw_rows("identities")
    returned, original = invoke(handler, "cognito_post_confirmation.json")
    assert returned == original
    returned, original = invoke(handler, "cognito_post_authentication.json")
    assert returned == original
    assert raw_rows("users") == users_before
    assert raw_rows("identities") == identities_before


def test_post_authentication_alone_provisions_a_user_who_predates_the_trigger(handler):
    returned, original = invoke(handler, "cognito_post_authentication.json")
    assert returned == original
    sub = original["request"]["userAttributes"]["sub"]
    assert f"cognito#{sub}" in identity_map()
    assert len(profiles()) == 1
    invoke(handler, "cognito_post_authentication.json")
    assert len(profiles()) == 1 and len(identity_map()) == 1


def test_federated_post_confirmation_writes_the_google_anchor(handler):
    returned, original = invoke(handler, "cognito_post_confirmation_federated.json")
    assert returned == original
    sub = original["request"]["userAttributes"]["sub"]
    ids = identity_map()
    assert set(ids) == {f"cognito#{sub}", "google#1234567890"}
    assert len(set(ids.values())) == 1
    invoke(handler, "cognito_post_confirmation_federated.json")
    assert identity_map() == ids and len(profiles()) == 1


def test_test_account_post_confirmation_stamps_is_test_account(handler):
    returned, original = invoke(handler, "cognito_post_confirmation_test_account.json")
    assert returned == original
    (profile,) = profiles().values()
    assert profile["Email"]["S"] == "bot-001@integ.tailspend.kinesis.studio"
    assert profile["IsTestAccount"] == {"BOOL": True}


@pytest.mark.parametrize("trigger", ["PreSignUp_SignUp", "PostConfirmation_Unknown",
                                     "CustomMessage_SignUp"])
def test_handler_ignores_other_trigger_sources_and_still_returns_the_event(handler, trigger):
    event = canned_event("cognito_post_confirmation.json")
    event["triggerSource"] = trigger
    original = copy.deepcopy(event)
    assert handler(event, lambda_context()) == original
    assert raw_rows("users") == [] and raw_rows("identities") == []


# -- EmailVerified backfill: an account that predates the flag gets it at its next sign-in ---

def _profile_of(sub: str) -> dict:
    return profiles()[identity_map()[f"cognito#{sub}"]]


def _sign_in_event(verified: str, email: str = "ada@example.com") -> dict:
    event = canned_event("cognito_post_authentication.json")
    event["request"]["userAttributes"].update(email_verified=verified, email=email)
    return event


def test_an_account_without_the_flag_gets_it_from_its_next_sign_in(handler):
    invoke(handler, "cognito_post_confirmation.json")
    sub = canned_event("cognito_post_confirmation.json")["request"]["userAttributes"]["sub"]
    user_id = identity_map()[f"cognito#{sub}"]
    # as every account provisioned before EmailVerified existed
    Profile(*Profile.key(user_id)).update(actions=[Profile.EmailVerified.remove()])
    assert "EmailVerified" not in _profile_of(sub)
    invoke(handler, "cognito_post_authentication.json")
    assert _profile_of(sub)["EmailVerified"] == {"BOOL": True}


def test_a_sign_in_after_verifying_the_address_sets_the_flag_and_a_later_one_writes_nothing(
        handler):
    handler(_sign_in_event("false"), lambda_context())
    sub = canned_event("cognito_post_authentication.json")["request"]["userAttributes"]["sub"]
    assert _profile_of(sub)["EmailVerified"] == {"BOOL": False}
    handler(_sign_in_event("true"), lambda_context())
    assert _profile_of(sub)["EmailVerified"] == {"BOOL": True}
    before = raw_rows("users")
    handler(_sign_in_event("true"), lambda_context())
    assert raw_rows("users") == before


def test_a_claim_about_another_address_vouches_for_nothing(handler):
    handler(_sign_in_event("false"), lambda_context())
    sub = canned_event("cognito_post_authentication.json")["request"]["userAttributes"]["sub"]
    handler(_sign_in_event("true", email="someone-else@example.com"), lambda_context())
    assert _profile_of(sub)["EmailVerified"] == {"BOOL": False}


def test_the_backfill_leaves_an_account_being_deleted_alone(handler):
    from app.users.provisioning import record_email_verified

    invoke(handler, "cognito_post_confirmation.json")
    sub = canned_event("cognito_post_confirmation.json")["request"]["userAttributes"]["sub"]
    user_id = identity_map()[f"cognito#{sub}"]
    Profile(*Profile.key(user_id)).update(actions=[Profile.EmailVerified.remove(),
                                                   Profile.Status.set("DELETING")])
    assert record_email_verified(user_id, "ada@example.com", True) is False
    assert "EmailVerified" not in _profile_of(sub)
    assert record_email_verified("no-such-user", "ada@example.com", True) is False
