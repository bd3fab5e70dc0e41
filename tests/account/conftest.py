"""Fixtures for account deletion: a user with a bit of everything a deletion must sweep."""
from __future__ import annotations

import functools
from types import SimpleNamespace

import boto3
import pytest

from app.account import cognito
from app.core.clock import now_iso
from models import pynamodb_adapter, registered_tables
from models.base import physical_name
from models.notifications import Notification
from models.users import McpCleanupPointer, McpGrant

# Group history keeps who wrote a row as an opaque user id (expense, template and comment
# attribution, the group's creator); the outbox's events live for their retention (TTL).
# Neither names the person once the profile and identities are gone; everything else must.
# Snapshot: a trashed row's image (app.ledger.trash), whose CreatedBy/UpdatedBy are that
# row's history as they would be on the row itself.
HISTORY_ATTRIBUTES = {"groups": {"CreatedBy", "UpdatedBy", "AuthorUserId", "DecidedBy",
                                 "Snapshot"}}
OUTBOX_PREFIX = "EVENT#"


@pytest.fixture(autouse=True)
def generous_request_budget(request):
    """The request's 5 s budget is a production bound: on a loaded test machine these
    tests must not turn into 202s by accident (tests that want a 202 set units). Only for
    tests that use the app (a race test on the embedded endpoint must not get moto)."""
    if "app" not in request.fixturenames:
        yield None
        return
    runtime = request.getfixturevalue("app").extensions["tailspend"]
    before = runtime.settings
    runtime.settings = before._replace(account_delete_seconds=120.0)
    yield runtime
    runtime.settings = before


@pytest.fixture
def directory():
    """The recording Cognito stand-in, installed for the test."""
    recorder = cognito.use(cognito.RecordingDirectory())
    yield recorder
    cognito.use(None)


def _post(client, path, headers, body=None, status=201):
    reply = client.post(path, json=body, headers=headers)
    assert reply.status_code == status, (path, reply.get_json())
    return reply.get_json()


def _expense(payer, amount, among, description="Dinner"):
    return {"description": description, "date": "2026-11-20", "amount": amount,
            "splitMode": "EQUAL", "payments": [{"participantId": payer, "amount": amount}],
            "splits": [{"participantId": pid, "value": 1} for pid in among]}


@pytest.fixture
def world(make_world):
    return make_world("")


@pytest.fixture
def make_world(client, sign_in, directory):
    """make_world(tag) -> a fresh pair of users on the test's tables (tag keeps them apart)."""
    return lambda tag: _world(client, sign_in, tag)


def _world(client, sign_in, tag: str):
    """Dora (to be deleted) with groups, people, tokens, devices and MCP rows; Olive stays.

    shared: Olive's group, Dora a MEMBER with expenses, a settlement and a comment.
    co_owned: Dora's group where Olive is a second OWNER (Dora's OwnerCount goes away).
    solo: Dora the only user, with a guest and an expense (deleted with the account).
    pending: Olive's group where Dora's join request is pending.
    invited: Olive's group with a guest reserved for Dora by a direct invitation."""
    email = f"dora{tag}@example.com"
    dora_h, dora = sign_in(email, display_name="Dora")
    olive_h, olive = sign_in(f"olive{tag}@example.com", display_name="Olive")

    def group(headers, name):
        body = _post(client, "/groups", headers, {"name": name, "currency": "EUR"})
        code = client.get(f"/groups/{body['groupId']}/invite", headers=headers).get_json()["code"]
        return body["groupId"], body["myParticipantId"], code

    def join(gid, code, role="MEMBER"):
        request = _post(client, f"/groups/{gid}/join-requests", dora_h,
                        {"code": code, "mode": "NEW"})
        if role is None:
            return request
        reply = _post(client, f"/groups/{gid}/join-requests/{request['requestId']}/approve",
                      olive_h, {"role": role}, status=200)
        return reply["participant"]["participantId"]

    shared, olive_pid, code = group(olive_h, "Shared")
    guest = _post(client, f"/groups/{shared}/participants", olive_h, {"displayName": "Gus"})
    dora_pid = join(shared, code)
    expense = _post(client, f"/groups/{shared}/expenses", dora_h,
                    _expense(dora_pid, 9000, [dora_pid, olive_pid, guest["participantId"]]))
    _post(client, f"/groups/{shared}/expenses", olive_h,
          _expense(olive_pid, 1000, [dora_pid, olive_pid]))
    _post(client, f"/groups/{shared}/settlements", dora_h,
          {"payerId": olive_pid, "payeeId": dora_pid, "amount": 500})
    _post(client, f"/groups/{shared}/expenses/{expense['expenseId']}/comments", dora_h,
          {"body": "thanks!"})

    co_owned, dora_owner_pid, code2 = group(dora_h, "Co-owned")
    olive_req = _post(client, f"/groups/{co_owned}/join-requests", olive_h,
                      {"code": code2, "mode": "NEW"})
    olive_in_co = _post(client, f"/groups/{co_owned}/join-requests/{olive_req['requestId']}/approve",
                        dora_h, {"role": "MEMBER"}, status=200)["participant"]["participantId"]
    assert client.patch(f"/groups/{co_owned}/participants/{olive_in_co}", json={"role": "OWNER"},
                        headers=dora_h).status_code == 200
    _post(client, f"/groups/{co_owned}/expenses", olive_h,
          _expense(olive_in_co, 3000, [olive_in_co, dora_owner_pid]))

    solo, solo_pid, _ = group(dora_h, "Solo")
    solo_guest = _post(client, f"/groups/{solo}/participants", dora_h, {"displayName": "Sam"})
    _post(client, f"/groups/{solo}/expenses", dora_h,
          _expense(solo_pid, 400, [solo_pid, solo_guest["participantId"]]))

    pending, _, code3 = group(olive_h, "Pending")
    join(pending, code3, role=None)

    invited, _, _ = group(olive_h, "Invited")
    reserved = _post(client, f"/groups/{invited}/participants", olive_h, {"displayName": "D."})

    # People: Dora's handle (discoverable), a friendship, an invitation into the reserved guest.
    assert client.put("/people/me/handle", headers=dora_h,
                      json={"handle": f"dora_d{tag}", "discoverable": True}).status_code == 200
    _post(client, "/people/me/friends", olive_h, {"userId": dora})
    _post(client, f"/people/me/friends/{olive}/accept", dora_h, status=200)
    _post(client, f"/groups/{invited}/invitations", olive_h,
          {"userId": dora, "role": "MEMBER", "participantId": reserved["participantId"]})

    # Developer: a token, used once (usage row, budget, idempotency record).
    token = _post(client, "/developer/tokens", dora_h,
                  {"name": "cli", "scopes": ["groups:read", "expenses:write"], "expiresInDays": 30})
    pat_h = {"Authorization": f"Bearer {token['token']}", "Idempotency-Key": "k-1"}
    _post(client, f"/groups/{shared}/expenses", pat_h,
          _expense(dora_pid, 300, [dora_pid, olive_pid], description="via PAT"))

    # Notifications: a device, preferences and a history row.
    _post(client, "/notifications/devices", dora_h, {"platform": "ANDROID", "token": f"dora-phone{tag}"})
    assert client.patch("/notifications/preferences", json={"types": {"EXPENSE_ADDED": False}},
                        headers=dora_h).status_code == 200
    Notification(*Notification.key(dora, now_iso(), "e-1"), NotificationId="n-1",
                 Type="EXPENSE_ADDED", Title="t", Body="b", CreatedAt=now_iso()).save()

    # MCP: a grant, and locators in other partitions with their cleanup pointers.
    McpGrant(dora, "MCPGRANT#g1", GrantId="g1", Status="ACTIVE").save()
    targets = [(f"MCPCODE#{dora}#{index}", "CLAIM") for index in range(3)]
    for index, (target_pk, target_sk) in enumerate(targets):
        McpGrant(target_pk, target_sk, GrantId="g1", Status="ACTIVE").save()
        McpCleanupPointer(dora, McpCleanupPointer.sort_key("g1", str(index)),
                          TargetUserId=target_pk, TargetSK=target_sk).save()

    return SimpleNamespace(
        dora=dora, dora_h=dora_h, olive=olive, olive_h=olive_h, email=email,
        pat_h=pat_h, shared=shared, dora_pid=dora_pid, co_owned=co_owned,
        dora_owner_pid=dora_owner_pid, solo=solo, pending=pending, invited=invited,
        reserved=reserved["participantId"], groups=(shared, co_owned, pending, invited),
        mcp_targets=targets)


def _strings(value, path=()):
    """Every (attribute path, string) inside a DynamoDB-JSON value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _strings(inner, path + ((key,) if key not in ("S", "SS", "M", "L", "N")
                                               else ()))
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner, path)
    elif isinstance(value, str):
        yield path, value


@functools.cache
def _scanner():
    return boto3.client("dynamodb", region_name="us-east-1")  # ~30 ms to build: kept


def rows_naming(*needles: str) -> list:
    """(table, key, attribute) of every row of every table holding one of ``needles``,
    past the history attributes and the outbox (see HISTORY_ATTRIBUTES)."""
    client = _scanner()
    found = []
    for logical, model in registered_tables().items():
        pages = client.get_paginator("scan").paginate(TableName=physical_name(logical))
        for page in pages:
            for item in page["Items"]:
                if logical == "notifications" and item["SK"]["S"].startswith(OUTBOX_PREFIX):
                    continue
                for path, text in _strings(item):
                    if not any(needle in text for needle in needles):
                        continue
                    if path and path[0] in HISTORY_ATTRIBUTES.get(logical, ()):
                        continue
                    found.append((logical, {k: v for k, v in item.items()
                                            if k in pynamodb_adapter.key_names(model)},
                                  path))
    return found
