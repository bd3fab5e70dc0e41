"""`python -m app serve` end to end: a real process, real sockets, data that survives restarts."""
from __future__ import annotations

import signal
import threading

import botocore.exceptions
import pytest

from tests.local.serving import Server, call as _call, sign_in

@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "tailspend-data"


def _sign_in(server, email="ada@example.com"):
    return sign_in(server, email)


def test_serve_answers_health_tokens_profile_and_openapi(served_app):
    server = served_app
    token, user_id = _sign_in(server, "serve-smoke@example.com")
    status, profile = _call("GET", server.url + "/users/me", token=token)
    assert status == 200 and profile["userId"] == user_id
    status, spec = _call("GET", server.url + "/openapi.json")
    assert status == 200 and "/users/me" in spec["paths"]
    status, keys = _call("GET", server.url + "/.well-known/jwks.json")
    assert status == 200 and keys["keys"][0]["alg"] == "RS256"


def test_data_survives_a_clean_restart(data_dir):
    server = Server(data_dir)
    try:
        token, user_id = _sign_in(server)
        assert _call("PATCH", server.url + "/users/me", {"displayName": "Countess"}, token)[0] == 200
        status, web_push = _call("GET", server.url + "/notifications/web-push-key", token=token)
        assert status == 200 and len(web_push["publicKey"]) == 87  # 65-byte point, base64url
    finally:
        server.stop()
    current = (data_dir / "dynamodb" / "CURRENT").read_text().strip()
    assert (data_dir / "dynamodb" / f"snapshot-{current}" / "tailspend-dev-users.jsonl").exists()
    server = Server(data_dir)
    try:
        # The same token still verifies: the issuer key lives in the data dir too.
        status, profile = _call("GET", server.url + "/users/me", token=token)
        assert status == 200, profile
        assert profile["userId"] == user_id and profile["displayName"] == "Countess"
        # The VAPID key too: a browser's subscription made before the restart still works.
        assert _call("GET", server.url + "/notifications/web-push-key", token=token) == (
            200, web_push)
        assert _sign_in(server)[1] == user_id
    finally:
        server.stop()


def test_a_hard_kill_loses_no_acknowledged_write(data_dir):
    server = Server(data_dir)
    try:
        token, user_id = _sign_in(server)
        assert _call("PATCH", server.url + "/users/me", {"displayName": "Killed"}, token)[0] == 200
    finally:
        server.stop(signal.SIGKILL)
    server = Server(data_dir)
    try:
        status, profile = _call("GET", server.url + "/users/me", token=token)
        assert status == 200 and profile["displayName"] == "Killed"
    finally:
        server.stop()


@pytest.mark.race
def test_embedded_endpoint_lets_exactly_one_conflicting_transaction_win(embedded_dynamodb):
    """The reason for the lock: unserialized moto lets two conditional writers both win."""
    from app.local.template_tables import create_tables

    client = embedded_dynamodb.client()
    create_tables(client, "lockproof")
    table = "tailspend-lockproof-rate-limits"
    for round_number in range(50):
        key = f"round-{round_number}"
        winners, errors = [], []
        barrier = threading.Barrier(8)

        def attempt(worker):
            own = embedded_dynamodb.client()
            barrier.wait()
            try:
                own.transact_write_items(TransactItems=[{"Put": {
                    "TableName": table, "Item": {"Key": {"S": key}, "Owner": {"N": str(worker)}},
                    "ConditionExpression": "attribute_not_exists(#k)",
                    "ExpressionAttributeNames": {"#k": "Key"}}}])
                winners.append(worker)
            except botocore.exceptions.ClientError as error:
                errors.append(error.response["Error"]["Code"])

        threads = [threading.Thread(target=attempt, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(winners) == 1, (round_number, winners)
        assert set(errors) == {"TransactionCanceledException"}
