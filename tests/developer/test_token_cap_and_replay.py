"""The token cap holds exactly, a replayed create never shows (nor stores) the secret, and the
daily budget refuses rather than lets a request through when its counter keeps colliding."""
from __future__ import annotations

import json

import pytest

from app.developer import tokens
from models.developer_tokens import AccessToken, IdempotencyRecord, TokenCount
from tests.edge.test_transactions import CONFLICT, dynamodb_answers, schedule  # noqa: F401

BODY = {"name": "cli", "scopes": ["groups:read"], "expiresInDays": 30}


def _create(client, headers, **extra):
    return client.post("/developer/tokens", headers={**headers, **extra}, json=BODY)


# --- item: the secret is never stored -----------------------------------------------------

def test_a_replayed_create_answers_the_metadata_without_the_secret(client, sign_in):
    headers, user_id = sign_in("dev@example.com")
    first = _create(client, headers, **{"Idempotency-Key": "mint-1"})
    assert first.status_code == 201 and first.get_json()["token"].startswith("tsp_")
    # tsp_<prefix part>_<secret>: the secret is base64url and may itself hold "_"
    secret = first.get_json()["token"][len(first.get_json()["prefix"]) + 1:]
    assert len(secret) >= 20

    raw = IdempotencyRecord.raw_get(*IdempotencyRecord.key(f"APP#{user_id}", "mint-1"))
    assert secret not in json.dumps(raw) and first.get_json()["token"] not in json.dumps(raw)
    assert "token" not in json.loads(raw["ResponseBody"]["S"])

    again = _create(client, headers, **{"Idempotency-Key": "mint-1"})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    expected = {k: v for k, v in first.get_json().items() if k != "token"}
    assert again.get_json() == expected
    assert len(list(AccessToken.for_owner(user_id))) == 1  # nothing minted twice


def test_the_openapi_document_says_a_replay_has_no_token(client):
    spec = client.get("/openapi.json").get_json()
    created = spec["components"]["schemas"]["TokenCreated"]
    assert "token" not in created.get("required", [])
    assert "replay" in created["properties"]["token"]["description"].lower()
    assert "without" in spec["paths"]["/developer/tokens"]["post"]["description"]


# --- item: the cap ---------------------------------------------------------------------------

def test_the_cap_counts_live_tokens_and_revoking_gives_a_slot_back(client, sign_in,
                                                                  monkeypatch):
    monkeypatch.setattr(tokens, "MAX_TOKENS_PER_USER", 3)
    headers, user_id = sign_in("cap@example.com")
    made = [_create(client, headers).get_json() for _ in range(3)]
    refused = _create(client, headers)
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "TOO_MANY_TOKENS"

    assert client.delete(f"/developer/tokens/{made[0]['tokenId']}",
                         headers=headers).status_code == 204
    assert client.delete(f"/developer/tokens/{made[0]['tokenId']}",  # twice: one slot only
                         headers=headers).status_code == 204
    assert _create(client, headers).status_code == 201
    assert _create(client, headers).status_code == 403
    assert TokenCount.get(*TokenCount.key(user_id)).Live == 3


def test_expired_tokens_are_released_when_the_cap_is_reached(client, sign_in, monkeypatch):
    monkeypatch.setattr(tokens, "MAX_TOKENS_PER_USER", 2)
    headers, user_id = sign_in("expiry@example.com")
    made = [_create(client, headers).get_json() for _ in range(2)]
    AccessToken(made[0]["tokenId"], "TOKEN").update(
        actions=[AccessToken.ExpiresAt.set("2000-01-01T00:00:00.000Z")])
    assert _create(client, headers).status_code == 201  # the expired one's slot
    assert _create(client, headers).status_code == 403
    # Revoking the expired token gives nothing back (it holds no slot any more).
    client.delete(f"/developer/tokens/{made[0]['tokenId']}", headers=headers)
    assert _create(client, headers).status_code == 403
    assert TokenCount.get(*TokenCount.key(user_id)).Live == 2


def test_tokens_minted_before_counts_existed_are_counted(client, sign_in, monkeypatch):
    monkeypatch.setattr(tokens, "MAX_TOKENS_PER_USER", 3)
    headers, user_id = sign_in("legacy@example.com")
    for _ in range(2):
        _create(client, headers)
    TokenCount(*TokenCount.key(user_id)).delete()  # as tokens minted before the count
    assert _create(client, headers).status_code == 201  # seeded with 2, now 3
    assert _create(client, headers).status_code == 403
    assert TokenCount.get(*TokenCount.key(user_id)).Live == 3


# --- item: the daily budget fails closed under contention ----------------------------------

def test_a_budget_that_keeps_colliding_refuses_with_retry_after(client, sign_in, schedule,
                                                                dynamodb_answers):
    headers, _ = sign_in("busy@example.com")
    pat = {"Authorization": f"Bearer {_create(client, headers).get_json()['token']}"}
    assert client.get("/users/me/groups", headers=pat).status_code == 200

    state = dynamodb_answers(CONFLICT, times=100)  # every write collides, past every retry
    reply = client.get("/users/me/groups", headers=pat)
    assert reply.status_code == 429
    assert reply.headers["Retry-After"] == "1"
    assert reply.get_json()["error"]["code"] == "RATE_LIMITED"
    assert reply.get_json()["error"]["details"] == {"policy": "contention"}
    assert state["calls"] >= 2  # it was retried before refusing

    state["left"] = 0  # the collisions stop: the next request goes through
    assert client.get("/users/me/groups", headers=pat).status_code == 200


@pytest.mark.parametrize("times", [1, 2])
def test_a_collision_the_retries_absorb_is_not_refused(client, sign_in, schedule,
                                                       dynamodb_answers, times):
    headers, _ = sign_in(f"blip{times}@example.com")
    pat = {"Authorization": f"Bearer {_create(client, headers).get_json()['token']}"}
    dynamodb_answers(CONFLICT, times=times)
    assert client.get("/users/me/groups", headers=pat).status_code == 200
