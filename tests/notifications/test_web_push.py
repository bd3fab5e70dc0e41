"""Web Push end to end: a subscription registered through the API, an expense added, and a
local push service on 127.0.0.1 that decrypts (RFC 8291 aes128gcm) what the worker sent."""
from __future__ import annotations

import base64
import json
import os
import threading
from typing import Optional
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from app.notifications import push
from tests.notifications.test_worker import add_expense, duo, history  # noqa: F401


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class PushService:
    """A push service on an ephemeral port: records each POST, answers ``status`` (with a
    ``Location`` header when ``location`` is given: a redirect)."""

    def __init__(self, status: int = 201, location: Optional[str] = None) -> None:
        self.received, self.status, self.location = [], status, location
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                if service.location:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def web_push():
    vapid = Vapid()
    vapid.generate_keys()
    key = b64(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))
    previous = push._current.get("provider")
    # Local mode, as under `make dev`: its loopback exception lets the test push service in.
    provider = push.use(push.WebPushProvider(key, "mailto:ops@example.com", local=True))
    yield provider
    if previous is None:
        push._current.pop("provider", None)
    else:
        push.use(previous)


def subscribe(client, headers, endpoint: str) -> tuple:
    """A browser's PushSubscription (fresh P-256 key and auth secret), registered via the API."""
    receiver = ec.generate_private_key(ec.SECP256R1())
    public = receiver.public_key().public_bytes(serialization.Encoding.X962,
                                                serialization.PublicFormat.UncompressedPoint)
    auth = os.urandom(16)
    token = json.dumps({"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(auth)}})
    reply = client.post("/notifications/devices", json={"platform": "WEB", "token": token},
                        headers=headers)
    assert reply.status_code == 201, reply.get_json()
    return receiver, auth, reply.get_json()["deviceId"]


def test_the_push_service_receives_an_encrypted_message_with_the_right_title(
        duo, push_service, web_push):
    from tests.notifications.conftest import pending_records, run_worker
    assert run_worker(pending_records()) == []  # the join events, before any web device
    receiver, auth, _ = subscribe(duo.client, duo.bob_h, push_service.url + "/sub/bob")
    add_expense(duo, description="Tapas")
    assert run_worker(pending_records()) == []
    assert len(push_service.received) == 1
    path, headers, body = push_service.received[0]
    assert path == "/sub/bob"
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    message = json.loads(http_ece.decrypt(body, private_key=receiver, auth_secret=auth,
                                          version="aes128gcm"))
    assert message["title"] == "New expense in Lisbon"
    assert message["body"] == "Olive added \u201cTapas\u201d (€45.50)."
    assert message["notificationId"] == history(duo.client, duo.bob_h)[0]["notificationId"]


def test_a_subscription_the_push_service_calls_gone_removes_the_device(duo, web_push):
    from tests.notifications.conftest import pending_records, run_worker
    gone = PushService(status=410)
    try:
        assert run_worker(pending_records()) == []
        _, _, device_id = subscribe(duo.client, duo.bob_h, gone.url + "/sub/old")
        add_expense(duo)
        assert run_worker(pending_records()) == []
        assert len(gone.received) == 1
    finally:
        gone.close()
    reply = duo.client.delete(f"/notifications/devices/{device_id}", headers=duo.bob_h)
    assert reply.status_code == 404  # already removed by the worker
