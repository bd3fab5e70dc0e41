"""Local mode's realtime server in-process: expired tokens, its transport role, keep-alive."""
from __future__ import annotations

import json
import time

import jwt
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.local.realtime_server import RealtimeServer
from app.services.realtime import keys, tokens
from tests.realtime.wsclient import Client

KEY = "k" * 40


def _token(channels, *, age_s: float = 0.0) -> str:
    issued = int(time.time() - age_s)
    return jwt.encode({"sub": "u1", "aud": tokens.AUDIENCE, "iat": issued,
                       "exp": issued + tokens.LIFETIME_S, "channels": channels}, KEY,
                      algorithm="HS256", headers={"kid": keys.PLAIN_KID, "typ": tokens.TOKEN_TYPE})


@pytest.fixture
def server():
    keys.configure(settings=Settings.from_env({"REALTIME_TOKEN_KEY": KEY}))
    server = RealtimeServer(port=0, keep_alive_s=0.2).start()
    yield server
    server.stop()


def _issued(server, token):
    return {"url": f"ws://{server.endpoint}/event/realtime", "host": server.endpoint,
            "token": token, "channels": ["/groups/g1", "/users/u1"]}


def test_an_expired_token_cannot_connect_or_subscribe(server):
    expired = _token(["/groups/g1"], age_s=16 * 60)
    client = Client(_issued(server, expired))
    # The handshake's answer (Amplify reads it after its connection_init: sent before, its
    # socket has no message handler yet and the error is lost), then the close.
    with pytest.raises(TimeoutError):
        client.receive(timeout=0.5)
    message = client.init()
    assert message["type"] == "connection_error" and "expired" in message["errors"][0]["message"]
    assert message["errors"][0]["errorType"] == "UnauthorizedException"
    assert set(message) == {"type", "errors"} and set(message["errors"][0]) == {"errorType",
                                                                                "message"}
    with pytest.raises(ConnectionClosed):
        client.receive()
    client = Client(_issued(server, _token(["/groups/g1"])))
    try:
        client.init()
        reply = client.subscribe("/groups/g1", token=expired)
        assert reply["type"] == "subscribe_error"
        assert reply["errors"][0]["errorType"] == "UnauthorizedException"
    finally:
        client.close()


def test_published_events_reach_each_subscription_in_order_with_keep_alives(server):
    client = Client(_issued(server, _token(["/groups/g1"])))
    try:
        client.init()
        sub = client.subscribe("/groups/g1")
        assert sub["type"] == "subscribe_success" and server.subscriber_count("/groups/g1") == 1
        server.publish("/groups/g1", [json.dumps({"revision": n}) for n in (1, 2)])
        server.publish("/groups/other", ['{"revision": 9}'])  # nobody listens: no error
        server.publish("/groups/g1", ['{"revision": 3}'])
        assert [client.poke()["revision"] for _ in range(3)] == [1, 2, 3]
        assert json.loads(client.ws.recv(timeout=5)) == {"type": "ka"}
    finally:
        client.close()
    deadline = time.monotonic() + 5
    while server.subscriber_count("/groups/g1") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.subscriber_count("/groups/g1") == 0  # a closed socket leaves no subscriber


def test_only_the_event_path_and_subprotocol_are_served(server):
    with pytest.raises(Exception, match="404"):
        with connect(f"ws://{server.endpoint}/graphql", subprotocols=["aws-appsync-event-ws"],
                     open_timeout=5):
            pass
    client = Client(_issued(server, _token(["/groups/g1"])))
    try:
        assert client.ws.subprotocol == "aws-appsync-event-ws"
        client.ws.send(json.dumps({"type": "publish", "channel": "/groups/g1", "events": ["{}"]}))
        assert client.receive()["type"] == "publish_error"  # clients never publish
        client.ws.send(json.dumps({"type": "start", "id": "x"}))  # GraphQL's, not Events'
        assert client.receive()["type"] == "error"
    finally:
        client.close()


def test_a_client_publish_is_refused_with_a_publish_error_naming_its_id(server):
    client = Client(_issued(server, _token(["/groups/g1"])))
    try:
        client.init()
        client.ws.send(json.dumps({"type": "publish", "id": "p1", "channel": "/groups/g1",
                                   "events": ['{"a":1}'], "authorization": {
                                       "host": server.endpoint, "Authorization": client.token}}))
        reply = client.receive()
        assert reply == {"type": "publish_error", "id": "p1", "errors": [{
            "errorType": "UnauthorizedException", "message": "Only the publisher may publish."}]}
        # the connection stays usable
        assert client.subscribe("/groups/g1")["type"] == "subscribe_success"
    finally:
        client.close()
