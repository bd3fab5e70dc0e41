"""Local mode's realtime server in-process (on moto): expired tokens, its transport role,
keep-alive, and nothing it opened outliving its token."""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

import jwt
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.local.realtime_server import RealtimeServer, _Session
from app.realtime import keys, tokens
from tests.ledger.conftest import make_group_ctx
from tests.support import aws_calls
from tests.realtime.wsclient import Client

KEY = "k" * 40


@dataclass
class Ann:
    """A signed-in user with a group: connect and subscribe read both."""

    user_id: str
    group: str  # the group's channel

    @property
    def channels(self) -> list:
        return [self.group, f"/users/{self.user_id}"]

    def token(self, *, age_s: float = 0.0) -> str:
        """A token minted here, ``age_s`` old: one can expire in a second or two."""
        issued = int(time.time() - age_s)
        return jwt.encode({"sub": self.user_id, "aud": tokens.AUDIENCE, "iat": issued,
                           "exp": issued + tokens.LIFETIME_S, "channels": self.channels}, KEY,
                          algorithm="HS256",
                          headers={"kid": keys.PLAIN_KID, "typ": tokens.TOKEN_TYPE})


@pytest.fixture
def ann(client, sign_in) -> Ann:
    ctx = make_group_ctx(client, sign_in, "ann@example.com", guests=0)
    return Ann(ctx.user_id, f"/groups/{ctx.group_id}")


@pytest.fixture
def server(ann):
    keys.configure(settings=Settings.from_env({"REALTIME_TOKEN_KEY": KEY}))
    server = RealtimeServer(port=0, keep_alive_s=0.2).start()
    yield server
    server.stop()


def _issued(server, token):
    return {"url": f"ws://{server.endpoint}/event/realtime", "host": server.endpoint,
            "token": token}


def test_an_expired_token_cannot_connect_or_subscribe(server, ann):
    expired = ann.token(age_s=16 * 60)
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
    client = Client(_issued(server, ann.token()))
    try:
        client.init()
        reply = client.subscribe(ann.group, token=expired)
        assert reply["type"] == "subscribe_error"
        assert reply["errors"][0]["errorType"] == "UnauthorizedException"
    finally:
        client.close()


def test_published_events_reach_each_subscription_in_order_with_keep_alives(server, ann):
    client = Client(_issued(server, ann.token()))
    try:
        client.init()
        sub = client.subscribe(ann.group)
        assert sub["type"] == "subscribe_success" and server.subscriber_count(ann.group) == 1
        server.publish(ann.group, [json.dumps({"revision": n}) for n in (1, 2)])
        server.publish("/groups/other", ['{"revision": 9}'])  # nobody listens: no error
        server.publish(ann.group, ['{"revision": 3}'])
        assert [client.poke()["revision"] for _ in range(3)] == [1, 2, 3]
        assert json.loads(client.ws.recv(timeout=5)) == {"type": "ka"}
    finally:
        client.close()
    deadline = time.monotonic() + 5
    while server.subscriber_count(ann.group) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.subscriber_count(ann.group) == 0  # a closed socket leaves no subscriber


def test_only_the_event_path_and_subprotocol_are_served(server, ann):
    with pytest.raises(Exception, match="404"):
        with connect(f"ws://{server.endpoint}/graphql", subprotocols=["aws-appsync-event-ws"],
                     open_timeout=5):
            pass
    client = Client(_issued(server, ann.token()))
    try:
        assert client.ws.subprotocol == "aws-appsync-event-ws"
        client.ws.send(json.dumps({"type": "publish", "channel": ann.group, "events": ["{}"]}))
        assert client.receive()["type"] == "publish_error"  # clients never publish
        client.ws.send(json.dumps({"type": "start", "id": "x"}))  # GraphQL's, not Events'
        assert client.receive()["type"] == "error"
    finally:
        client.close()


def test_a_client_publish_is_refused_with_a_publish_error_naming_its_id(server, ann):
    client = Client(_issued(server, ann.token()))
    try:
        client.init()
        client.ws.send(json.dumps({"type": "publish", "id": "p1", "channel": ann.group,
                                   "events": ['{"a":1}'], "authorization": {
                                       "host": server.endpoint, "Authorization": client.token}}))
        reply = client.receive()
        assert reply == {"type": "publish_error", "id": "p1", "errors": [{
            "errorType": "UnauthorizedException", "message": "Only the publisher may publish."}]}
        # the connection stays usable
        assert client.subscribe(ann.group)["type"] == "subscribe_success"
    finally:
        client.close()


def _next(client, within_s: float = 10.0) -> dict:
    """The next message other than a keep-alive, within ``within_s`` (ka's come every 0.2 s,
    so a plain receive timeout would never fire)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            message = json.loads(client.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        except TimeoutError:
            break
        if message["type"] != "ka":
            return message
    raise AssertionError(f"nothing but keep-alives within {within_s} s")


def _marker(server, ann) -> None:
    """Publish on the user channel: a poke of the group published before it would come first."""
    server.publish(f"/users/{ann.user_id}", ['{"marker": true}'])


def test_a_subscription_ends_when_its_own_token_expires(server, ann):
    client = Client(_issued(server, ann.token()))
    try:
        client.init()
        assert client.subscribe(f"/users/{ann.user_id}")["type"] == "subscribe_success"
        # valid for two more seconds (and the 5 s leeway): the subscription must not outlive it
        short = client.subscribe(ann.group, token=ann.token(age_s=tokens.LIFETIME_S - 2))
        assert short["type"] == "subscribe_success"
        started = time.monotonic()
        ended = _next(client)
        assert ended["type"] == "subscribe_error" and ended["id"] == short["id"]
        assert "expired" in ended["errors"][0]["message"]
        assert time.monotonic() - started < 5  # at the token's exp, not after the leeway
        assert server.subscriber_count(ann.group) == 0
        server.publish(ann.group, ['{"revision": 1}'])
        _marker(server, ann)
        assert client.poke() == {"marker": True}  # the group's poke never came
    finally:
        client.close()


def test_the_connection_closes_when_its_token_expires(server, ann):
    client = Client(_issued(server, ann.token(age_s=tokens.LIFETIME_S - 2)))
    try:
        assert client.init()["type"] == "connection_ack"
        assert client.subscribe(ann.group)["type"] == "subscribe_success"
        with pytest.raises(ConnectionClosed) as closed:
            _next(client)
        assert closed.value.rcvd.code == 4401
    finally:
        client.close()


def _revoked(group_channel: str) -> str:
    group_id = group_channel.rsplit("/", 1)[1]
    return json.dumps({"groupId": group_id, "revision": None, "kind": "REVOKED", "id": group_id})


def test_a_revoked_poke_ends_the_members_subscriptions_to_that_group_first(server, ann):
    client = Client(_issued(server, ann.token()))
    try:
        client.init()
        group = client.subscribe(ann.group)
        assert client.subscribe(f"/users/{ann.user_id}")["type"] == "subscribe_success"
        server.publish(f"/users/{ann.user_id}", [_revoked("/groups/another")])
        assert client.poke()["groupId"] == "another"
        server.publish(ann.group, ['{"revision": 1}'])  # another group's revocation: kept
        assert client.poke() == {"revision": 1}
        server.publish(f"/users/{ann.user_id}", [_revoked(ann.group)])
        # the subscription is told it ended before the poke arrives
        ended = client.receive()
        assert ended["type"] == "subscribe_error" and ended["id"] == group["id"]
        assert ended["errors"][0] == {"errorType": "UnauthorizedException",
                                      "message": "You are no longer a member of this group."}
        assert client.poke()["kind"] == "REVOKED"
        server.publish(ann.group, ['{"revision": 2}'])
        _marker(server, ann)
        assert client.poke() == {"marker": True}
    finally:
        client.close()


def test_a_subscribe_whose_membership_read_straddles_a_revocation_is_refused(server, ann):
    client = Client(_issued(server, ann.token()))
    try:
        client.init()  # the connect's own read is done once it is acknowledged
        revoked = []

        def revoke_during_the_read(operation, _params):
            if operation == "BatchGetItem" and not revoked:
                revoked.append(operation)  # the removal lands while the row is being read
                server.publish(f"/users/{ann.user_id}", [_revoked(ann.group)])

        with aws_calls.watched(before=revoke_during_the_read):
            reply = client.subscribe(ann.group)
        assert revoked and reply["type"] == "subscribe_error"
        assert reply["errors"][0]["message"] == "You are no longer a member of this group."
        assert server.subscriber_count(ann.group) == 0
    finally:
        client.close()


def test_a_poke_whose_fan_out_straddles_an_unsubscribe_is_not_sent_after_its_reply():
    """A fan-out takes its subscribers, then sends on tasks of their own: an unsubscribe
    answered in between must see no data for that subscription after unsubscribe_success
    (a full run saw the group's creation poke land after it)."""
    server, sent, channel = RealtimeServer(), [], "/groups/g1"

    class Recording:  # what a websockets connection is asked to send, in order
        async def send(self, text: str) -> None:
            sent.append(json.loads(text)["type"])

    async def scenario() -> None:
        connection = Recording()
        session = _Session(connection, "u1", int(time.time()) + 60)
        session.channels["s1"] = channel
        server._subscribers[channel] = {(connection, "s1")}
        fan_out = asyncio.ensure_future(server._fan_out(
            channel, [json.dumps({"groupId": "g1", "revision": 2, "kind": "GROUP", "id": "g1"})]))
        await asyncio.sleep(0)  # the fan-out has its targets; its sends wait for their turn
        assert server._forget(session, "s1")  # what the unsubscribe handler does, then replies
        await connection.send(json.dumps({"type": "unsubscribe_success", "id": "s1"}))
        await fan_out

    asyncio.run(scenario())
    assert sent == ["unsubscribe_success"]
