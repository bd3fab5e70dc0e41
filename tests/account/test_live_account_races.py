"""Writes of every kind racing ``DELETE /users/me`` on one instance (real threads against the
serialized embedded endpoint): once the deletion has answered, no row names the user, and
no token minted along the way works."""
from __future__ import annotations

import threading

import boto3
import pytest

from app.account import deletion
from models import registered_tables
from models.base import physical_name
from tests.account.conftest import HISTORY_ATTRIBUTES, OUTBOX_PREFIX, _strings
from tests.support import threads

pytestmark = pytest.mark.race
ROUNDS = 2
MAX_ATTEMPTS = 25  # per writer and round: the deletion answers well before


@pytest.fixture
def live_app(live_db, tmp_path):
    return threads.live_app(live_db, tmp_path)


def _sign_in(client, email):
    reply = client.post("/dev/tokens", json={"email": email}).get_json()
    return {"Authorization": f"Bearer {reply['accessToken']}"}, reply["userId"]


def _scene(client, tag):
    """Dora, and what her racing writes need: friends-to-be, groups with invite codes."""
    dora_h, dora = _sign_in(client, f"dora{tag}@example.com")
    others, groups = [], []
    for index in range(2):
        olive_h, olive = _sign_in(client, f"olive{tag}-{index}@example.com")
        group = client.post("/groups", headers=olive_h,
                            json={"name": "O", "currency": "EUR"}).get_json()
        code = client.get(f"/groups/{group['groupId']}/invite",
                          headers=olive_h).get_json()["code"]
        others.append(olive)
        groups.append((group["groupId"], code))
    return dora_h, dora, others, groups


def _writes(app, dora_h, others, groups, tag, done):
    """(kind, call) pairs; each call repeats its write (a fresh handle, device, token, group
    each time) until the deletion has answered, and returns every (status, json) it got."""
    def repeat(kind, method, path, body):
        def run():
            seen = []
            for attempt in range(MAX_ATTEMPTS):
                sent = {k: (v.format(n=attempt) if isinstance(v, str) else v)
                        for k, v in body.items()}
                reply = app.test_client().open(path, method=method, json=sent,
                                               headers=dora_h)
                seen.append((reply.status_code, reply.get_json(silent=True) or {}))
                if done.is_set():
                    break
            return kind, seen
        return run

    writes = []
    for index in range(2):
        writes += [
            repeat("token", "POST", "/developer/tokens",
                   {"name": "t{n}", "scopes": ["groups:read"], "expiresInDays": 365}),
            repeat("handle", "PUT", "/people/me/handle",
                   {"handle": f"d{tag}_{index}_{{n}}", "discoverable": True}),
            repeat("device", "POST", "/notifications/devices",
                   {"platform": "IOS", "token": f"phone{tag}-{index}-{{n}}"}),
            repeat("friend", "POST", "/people/me/friends", {"userId": others[index]}),
            repeat("join", "POST", f"/groups/{groups[index][0]}/join-requests",
                   {"code": groups[index][1], "mode": "NEW"}),
            repeat("group", "POST", "/groups", {"name": "g{n}", "currency": "EUR"}),
        ]
    return writes


def _rows_naming(endpoint, needle):
    client = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=endpoint)
    found = []
    for logical in registered_tables():
        for page in client.get_paginator("scan").paginate(TableName=physical_name(logical)):
            for item in page["Items"]:
                if logical == "notifications" and item["SK"]["S"].startswith(OUTBOX_PREFIX):
                    continue
                for path, text in _strings(item):
                    if needle in text and not (path and path[0] in
                                               HISTORY_ATTRIBUTES.get(logical, ())):
                        found.append((logical, item.get("PK") or item.get("UserId")
                                      or item.get("TokenId") or item, path))
    return found


def test_writes_racing_the_deletion_leave_nothing_and_no_working_token(live_app, live_db):
    client = live_app.test_client()
    for round_ in range(ROUNDS):
        tag = f"r{round_}"
        dora_h, dora, others, groups = _scene(client, tag)
        done = threading.Event()
        writes = _writes(live_app, dora_h, others, groups, tag, done)

        def delete():
            try:
                return "delete", [(client.delete("/users/me", headers=dora_h).status_code, {})]
            finally:
                done.set()

        results = threads.together(writes + [delete])
        assert results[-1][1][0][0] in (202, 204), results[-1]
        deletion.delete_account(dora)  # a 202 (finished by the worker): finish it here
        succeeded = [(kind, status) for kind, seen in results[:-1] for status, _ in seen
                     if status < 300]
        tokens = [body["token"] for kind, seen in results if kind == "token"
                  for status, body in seen if status == 201]
        for token in tokens:
            reply = client.get("/users/me/groups", headers={"Authorization": f"Bearer {token}"})
            assert reply.status_code == 401
        assert client.get("/users/me/groups", headers=dora_h).status_code == 401
        left = list(_rows_naming(live_db, dora))
        assert left == [], succeeded
