"""`python -m app serve` end to end: a real process, real sockets, data that survives restarts."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import botocore.exceptions
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _call(method, url, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


class Server:
    """One `python -m app serve` process on free ports."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port, self.db_port = _free_port(), _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items()
               if k != "DYNAMODB_ENDPOINT" and not k.startswith("TAILSPEND_")}
        env.update(TAILSPEND_SNAPSHOT_SECONDS="0.5", LOG_LEVEL="WARNING")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--port", str(self.port),
             "--db-port", str(self.db_port), "--data-dir", str(data_dir)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if _call("GET", self.url + "/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.2)
        self.process.kill()
        raise AssertionError("serve did not come up: " + self.process.stdout.read().decode())

    def stop(self, sig=signal.SIGINT) -> None:
        self.process.send_signal(sig)
        self.process.wait(timeout=30)


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "tailspend-data"


def _sign_in(server, email="ada@example.com"):
    status, body = _call("POST", server.url + "/dev/tokens",
                         {"email": email, "displayName": "Ada"})
    assert status == 201, body
    return body["accessToken"], body["userId"]


def test_serve_answers_health_tokens_profile_and_openapi(data_dir):
    server = Server(data_dir)
    try:
        token, user_id = _sign_in(server)
        status, profile = _call("GET", server.url + "/users/me", token=token)
        assert status == 200 and profile["userId"] == user_id
        status, spec = _call("GET", server.url + "/openapi.json")
        assert status == 200 and "/users/me" in spec["paths"]
        status, keys = _call("GET", server.url + "/.well-known/jwks.json")
        assert status == 200 and keys["keys"][0]["alg"] == "RS256"
    finally:
        server.stop()


def test_data_survives_a_clean_restart(data_dir):
    server = Server(data_dir)
    try:
        token, user_id = _sign_in(server)
        assert _call("PATCH", server.url + "/users/me", {"displayName": "Countess"}, token)[0] == 200
    finally:
        server.stop()
    assert (data_dir / "dynamodb" / "tailspend-dev-users.jsonl").exists()
    server = Server(data_dir)
    try:
        # The same token still verifies: the issuer key lives in the data dir too.
        status, profile = _call("GET", server.url + "/users/me", token=token)
        assert status == 200, profile
        assert profile["userId"] == user_id and profile["displayName"] == "Countess"
        assert _sign_in(server)[1] == user_id
    finally:
        server.stop()


def test_periodic_snapshots_survive_a_hard_kill(data_dir):
    server = Server(data_dir)
    try:
        token, user_id = _sign_in(server)
        assert _call("PATCH", server.url + "/users/me", {"displayName": "Killed"}, token)[0] == 200
        time.sleep(2)  # several snapshot periods (0.5 s in this test)
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
