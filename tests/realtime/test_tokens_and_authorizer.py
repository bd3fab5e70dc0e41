"""POST /realtime/token and the AppSync Events authorizer that checks what it minted."""
from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import jwt
import pytest

from app.config import Settings
from app.handlers import realtime_authorizer
from app.realtime import keys, tokens
from app.realtime.channels import ChannelRefused, check_subscribe
from tests.ledger.conftest import make_group_ctx
from tests.support.lambda_context import lambda_context

EVENTS = Path(__file__).resolve().parents[2] / "events"
KEY_A, KEY_B = "a" * 40, "b" * 40


@pytest.fixture(autouse=True)
def one_key():
    keys.configure(settings=Settings.from_env({"REALTIME_TOKEN_KEY": KEY_A}))
    yield
    keys.configure(settings=Settings.from_env({"REALTIME_TOKEN_KEY": KEY_A}))


def _event(token, operation="EVENT_SUBSCRIBE", channel=None) -> dict:
    event = json.loads((EVENTS / "realtime_authorizer_subscribe.json").read_text())
    event["authorizationToken"] = token
    event["requestContext"]["operation"] = operation
    if channel is not None:
        event["requestContext"]["channel"] = channel
    return event


def test_the_token_lists_the_callers_groups_and_user_channel_for_15_minutes(client, sign_in):
    mine = make_group_ctx(client, sign_in, "ann@example.com", guests=0)
    make_group_ctx(client, sign_in, "bob@example.com", guests=0)
    reply = client.post("/realtime/token", headers=mine.headers)
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["channels"] == [f"/groups/{mine.group_id}", f"/users/{mine.user_id}"]
    claims = jwt.decode(body["token"], KEY_A, algorithms=["HS256"], audience=tokens.AUDIENCE)
    assert claims["exp"] - claims["iat"] == 15 * 60
    assert body["expiresAt"].endswith("Z") and body["url"].endswith("/event/realtime")
    assert jwt.get_unverified_header(body["token"])["kid"] == keys.PLAIN_KID


def test_the_token_route_needs_a_signed_in_caller(client):
    assert client.post("/realtime/token").status_code == 401


def test_the_authorizer_allows_connect_and_a_listed_channel_only(client, sign_in):
    mine = make_group_ctx(client, sign_in, "ann@example.com", guests=0)
    theirs = make_group_ctx(client, sign_in, "bob@example.com", guests=0)
    token = client.post("/realtime/token", headers=mine.headers).get_json()["token"]
    handle = realtime_authorizer.lambda_handler
    assert handle(_event(token, "EVENT_CONNECT"), lambda_context())["isAuthorized"] is True
    allowed = handle(_event(token, channel=f"/groups/{mine.group_id}"), lambda_context())
    assert allowed == {"isAuthorized": True, "ttlOverride": 0,
                       "handlerContext": {"userId": mine.user_id}}
    for channel in (f"/groups/{theirs.group_id}", "/groups/*", "/*", f"/users/{theirs.user_id}",
                    f"/groups/{mine.group_id}/*", None):
        assert handle(_event(token, channel=channel), lambda_context())["isAuthorized"] is False, channel
    # publishing is the publisher's IAM role's alone
    assert handle(_event(token, "EVENT_PUBLISH", f"/groups/{mine.group_id}"),
                  lambda_context())["isAuthorized"] is False


def test_expired_forged_and_foreign_tokens_are_refused(client):
    now = time.time()
    token, grant = tokens.mint("u1", now=now - 16 * 60)
    with pytest.raises(tokens.TokenRefused, match="expired"):
        tokens.verify(token)
    assert realtime_authorizer.lambda_handler(_event(token, "EVENT_CONNECT"),
                                              lambda_context())["isAuthorized"] is False
    fresh, _ = tokens.mint("u1")
    header, claims, signature = fresh.split(".")
    for bad in (f"{header}.{claims}.{signature[:-2]}AA",  # signature changed
                jwt.encode({"sub": "u1", "aud": tokens.AUDIENCE, "iat": int(now),
                            "exp": int(now) + 60, "channels": ["/groups/x"]}, "c" * 40,
                           algorithm="HS256", headers={"kid": "rt1", "typ": "rt+jwt"}),
                jwt.encode({"sub": "u1"}, KEY_A, algorithm="HS256"),  # no typ, no claims
                "", None, "garbage"):
        with pytest.raises(tokens.TokenRefused):
            tokens.verify(bad)


def test_rotation_keeps_tokens_of_a_listed_key_and_drops_a_removed_one(client):
    old, _ = tokens.mint("u1")
    keys.configure(settings=Settings.from_env({"REALTIME_TOKEN_KEY": json.dumps(
        {"current": "rt2", "keys": {"rt1": KEY_A, "rt2": KEY_B}})}))
    new, _ = tokens.mint("u1")
    assert jwt.get_unverified_header(new)["kid"] == "rt2"
    assert tokens.verify(old).user_id == tokens.verify(new).user_id == "u1"
    keys.configure(settings=Settings.from_env({"REALTIME_TOKEN_KEY": json.dumps({"current": "rt2",
                                                          "keys": {"rt2": KEY_B}})}))
    assert tokens.verify(new).user_id == "u1"
    with pytest.raises(tokens.TokenRefused):
        tokens.verify(old)


def test_the_key_is_read_from_secrets_manager_by_arn_and_must_be_long_enough():
    reads = []

    def fetch(arn):
        reads.append(arn)
        return KEY_B.encode()

    keys.configure(settings=Settings.from_env({"REALTIME_TOKEN_KEY_SECRET_ARN": "arn:secret"}), fetch=fetch)
    assert reads == []  # read on first use only
    assert keys.current() == ("rt1", KEY_B.encode()) and reads == ["arn:secret"]
    with pytest.raises(RuntimeError):  # refused at start, never signing with a weak key
        keys.configure(settings=Settings.from_env({"REALTIME_TOKEN_KEY": "short"}))


def test_the_subscribe_check_is_exact():
    allowed = ["/groups/g1", "/users/u1"]
    assert check_subscribe(allowed, "/groups/g1") == "/groups/g1"
    for channel in ("/groups/g1/", "/groups/g*", "/groups/g1/sub", "groups/g1", "/GROUPS/g1",
                    "/default/g1", 7):
        with pytest.raises(ChannelRefused):
            check_subscribe(allowed, channel)


# AppSync Events' documented Lambda-authorizer exchange (configure-event-api-auth): the request
# {authorizationToken, requestContext {apiId, accountId, requestId, operation,
# channelNamespaceName, channel}, requestHeaders}, the reply {isAuthorized, handlerContext,
# ttlOverride}. The canned events are that request; nothing else may come back.
REPLY_KEYS = {"isAuthorized", "handlerContext", "ttlOverride"}


def _canned(name: str, token: str) -> dict:
    event = json.loads((EVENTS / name).read_text())
    event["authorizationToken"] = token
    return event


def test_the_canned_requests_have_the_documented_shape():
    connect = json.loads((EVENTS / "realtime_authorizer_connect.json").read_text())
    subscribe = json.loads((EVENTS / "realtime_authorizer_subscribe.json").read_text())
    for event in (connect, subscribe):
        assert set(event) == {"authorizationToken", "requestContext", "requestHeaders"}
        assert {"apiId", "accountId", "requestId", "operation"} <= set(event["requestContext"])
    assert connect["requestContext"]["operation"] == "EVENT_CONNECT"
    assert subscribe["requestContext"]["operation"] == "EVENT_SUBSCRIBE"
    assert subscribe["requestContext"]["channel"].startswith(
        "/" + subscribe["requestContext"]["channelNamespaceName"] + "/")


def test_the_canned_connect_and_subscribe_get_documented_replies(client, sign_in):
    mine = make_group_ctx(client, sign_in, "cat@example.com", guests=0)
    token = client.post("/realtime/token", headers=mine.headers).get_json()["token"]
    handle = realtime_authorizer.lambda_handler
    connect = handle(_canned("realtime_authorizer_connect.json", token), lambda_context())
    subscribe = _canned("realtime_authorizer_subscribe.json", token)
    subscribe["requestContext"]["channel"] = f"/groups/{mine.group_id}"
    publish = copy.deepcopy(subscribe)
    publish["requestContext"]["operation"] = "EVENT_PUBLISH"
    refused_channel = _canned("realtime_authorizer_subscribe.json", token)  # another group
    replies = [connect, handle(subscribe, lambda_context()), handle(publish, lambda_context()),
               handle(refused_channel, lambda_context()),
               handle(json.loads((EVENTS / "realtime_authorizer_connect.json").read_text()),
                      lambda_context())]
    for reply in replies:
        assert set(reply) <= REPLY_KEYS and isinstance(reply["isAuthorized"], bool)
        assert reply["ttlOverride"] == 0  # never cached: the answer depends on the channel
        assert all(isinstance(v, str) for v in reply.get("handlerContext", {}).values())
    assert [r["isAuthorized"] for r in replies] == [True, True, False, False, False]
    assert connect["handlerContext"] == {"userId": mine.user_id}


# A token lists the groups of the moment it was minted: connect and subscribe read the
# account and the membership again, so what changed since bites at once.
def _member(client, sign_in, owner, email: str):
    """(token, user id, participant id) of a user who joined ``owner``'s group."""
    headers, user_id = sign_in(email)
    gid = owner.group_id
    code = client.get(f"/groups/{gid}/invite", headers=owner.headers).get_json()["code"]
    request = client.post(f"/groups/{gid}/join-requests", json={"code": code, "mode": "NEW"},
                          headers=headers).get_json()
    approved = client.post(f"/groups/{gid}/join-requests/{request['requestId']}/approve",
                           json={"role": "MEMBER"}, headers=owner.headers)
    assert approved.status_code == 200, approved.get_json()
    token = client.post("/realtime/token", headers=headers).get_json()["token"]
    return token, user_id, approved.get_json()["participant"]["participantId"]


def _authorized(name: str, token: str, channel: str | None = None) -> bool:
    event = _canned(name, token)
    if channel is not None:
        event["requestContext"]["channel"] = channel
    reply = realtime_authorizer.lambda_handler(event, lambda_context())
    assert reply["ttlOverride"] == 0
    return reply["isAuthorized"]


def test_a_token_minted_before_a_removal_no_longer_subscribes_to_that_group(client, sign_in):
    owner = make_group_ctx(client, sign_in, "olive@example.com", guests=0)
    token, user_id, pid = _member(client, sign_in, owner, "mia@example.com")
    group, mine = f"/groups/{owner.group_id}", f"/users/{user_id}"
    assert _authorized("realtime_authorizer_subscribe.json", token, group)
    assert client.delete(f"/groups/{owner.group_id}/participants/{pid}",
                         headers=owner.headers).status_code == 204
    assert not _authorized("realtime_authorizer_subscribe.json", token, group)
    # still a live account: it connects and hears its own channel (its REVOKED poke)
    assert _authorized("realtime_authorizer_connect.json", token)
    assert _authorized("realtime_authorizer_subscribe.json", token, mine)


def test_a_token_minted_before_account_deletion_neither_connects_nor_subscribes(client,
                                                                                sign_in):
    mine = make_group_ctx(client, sign_in, "dora@example.com", guests=0)
    token = client.post("/realtime/token", headers=mine.headers).get_json()["token"]
    channels = (f"/groups/{mine.group_id}", f"/users/{mine.user_id}")
    assert _authorized("realtime_authorizer_connect.json", token)
    assert client.delete("/users/me", headers=mine.headers).status_code == 204
    assert not _authorized("realtime_authorizer_connect.json", token)
    for channel in channels:
        assert not _authorized("realtime_authorizer_subscribe.json", token, channel), channel


def test_a_deleted_groups_channel_is_refused_to_a_token_that_lists_it(client, sign_in):
    mine = make_group_ctx(client, sign_in, "gil@example.com", guests=0)
    token = client.post("/realtime/token", headers=mine.headers).get_json()["token"]
    group = f"/groups/{mine.group_id}"
    assert _authorized("realtime_authorizer_subscribe.json", token, group)
    assert client.delete(f"/groups/{mine.group_id}",
                         headers=mine.headers).status_code in (202, 204)
    assert not _authorized("realtime_authorizer_subscribe.json", token, group)
