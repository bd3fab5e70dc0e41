"""Local mode's realtime server: the subset of the AppSync Events WebSocket protocol that
clients use, on ``ws://<host>:<port>/event/realtime``, built on the ``websockets`` library.

- Connect with the subprotocols ``aws-appsync-event-ws`` and ``header-<base64url JSON>``, the
  JSON being ``{"host": ..., "Authorization": "<token>"}`` (header auth, as AppSync's
  Lambda-authorizer mode takes it). With a bad token the socket opens, the client's
  ``connection_init`` gets ``connection_error`` {errors: [{errorType, message}]} (no
  ``errorCode``: AppSync Events sends none, and Amplify's client reads the error in that
  handshake step) and the socket closes.
- ``connection_init`` -> ``connection_ack`` (with ``connectionTimeoutMs``), then ``ka`` every
  KEEP_ALIVE_S.
- ``subscribe`` {id, channel, authorization} -> ``subscribe_success`` or ``subscribe_error``
  (UnauthorizedException: the same token, account and membership checks as the AWS
  authorizer, app/realtime/admission.py; connect makes them too);
  ``unsubscribe`` {id} -> ``unsubscribe_success``.
- Each published event reaches every subscription on its channel as ``data`` {id, event}.
- Nothing outlives its token: a subscription ends at its token's expiry with a
  ``subscribe_error`` {id, errors} naming it, and the connection closes (4401) at its
  own token's. A REVOKED poke ends the member's subscriptions to that group the same way
  before it is delivered (AppSync Events has no such hook: docs/realtime.md).
- A client ``publish`` {id, ...} gets ``publish_error`` {id, errors: [UnauthorizedException]}:
  what AppSync answers when the Lambda authorizer refuses EVENT_PUBLISH, as ours always does.

It is also the publisher's local transport (:meth:`RealtimeServer.publish`): the local stream
poller feeds the very handler AWS runs, and only the last hop differs. Publishing over the
socket is not offered: in AWS only the publisher's IAM role may publish."""
from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import threading
import time
from typing import Dict, List, Optional, Set, Tuple

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

from app.realtime import admission
from app.realtime.channels import ChannelRefused, group_channel
from app.realtime.pokes import revocation

log = logging.getLogger("tailspend.local.realtime")
PATH = "/event/realtime"
SUBPROTOCOL = "aws-appsync-event-ws"
KEEP_ALIVE_S = 60.0
CONNECTION_TIMEOUT_MS = 300_000
CONNECTION_INIT_WAIT_S = 15.0  # Amplify waits as long for the handshake answer
PUBLISH_WAIT_S = 5.0
EXPIRED = "The token has expired: ask POST /realtime/token for a new one."
REVOKED = "You are no longer a member of this group."


def header_auth(offered) -> dict:
    """The ``header-...`` subprotocol entry, decoded (base64url JSON, padding optional)."""
    for entry in offered or ():
        if entry.startswith("header-"):
            raw = entry[len("header-"):]
            try:
                data = json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
            except (ValueError, binascii.Error):
                return {}
            return data if isinstance(data, dict) else {}
    return {}


def _token(authorization: object) -> Optional[str]:
    if not isinstance(authorization, dict):
        return None
    value = authorization.get("Authorization") or authorization.get("authorization")
    return value if isinstance(value, str) else None


def _error(kind: str, message: str, **extra) -> str:
    return json.dumps({"type": kind, **extra,
                       "errors": [{"errorType": "UnauthorizedException", "message": message}]})


def _delay(expires_at: int) -> float:
    return max(0.0, expires_at - time.time())


class _Session:
    """One open connection: whose it is, and its subscriptions with their expiry timers."""

    def __init__(self, connection: ServerConnection, user_id: str, expires_at: int) -> None:
        self.connection, self.user_id, self.expires_at = connection, user_id, expires_at
        self.channels: Dict[str, str] = {}  # subscription id -> channel
        self.timers: Dict[str, asyncio.TimerHandle] = {}


class RealtimeServer:
    def __init__(self, host: str = "127.0.0.1", port: int = 0,
                 keep_alive_s: float = KEEP_ALIVE_S) -> None:
        self.host, self.port, self.keep_alive_s = host, port, keep_alive_s
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._ready = threading.Event()
        self._stopped: Optional[asyncio.Event] = None
        self._thread: Optional[threading.Thread] = None
        # channel -> {(connection, subscription id)}
        self._subscribers: Dict[str, Set[Tuple[ServerConnection, str]]] = {}
        self._sessions: Dict[ServerConnection, _Session] = {}
        # (user id, group id) -> REVOKED pokes seen: a subscribe whose membership read
        # straddles one is refused, since the read may predate the removal
        self._revocations: Dict[Tuple[str, str], int] = {}

    @property
    def endpoint(self) -> str:
        return f"{self.host}:{self.port}"

    # --- the protocol --------------------------------------------------------------------
    def _select(self, connection: ServerConnection, offered) -> Optional[str]:
        return SUBPROTOCOL if SUBPROTOCOL in offered else None

    def _check_path(self, connection: ServerConnection, request) -> Optional[Response]:
        if request.path.split("?", 1)[0] != PATH:
            return Response(404, "Not Found", Headers(), b"Connect to /event/realtime\n")
        return None

    async def _keep_alive(self, connection: ServerConnection) -> None:
        while True:
            await asyncio.sleep(self.keep_alive_s)
            await connection.send('{"type":"ka"}')

    async def _handle(self, connection: ServerConnection) -> None:
        offered = [p.strip() for p in
                   (connection.request.headers.get("Sec-WebSocket-Protocol") or "").split(",")]
        try:  # a blocking read of the account and memberships: off the event loop
            admitted = await asyncio.to_thread(admission.connect, _token(header_auth(offered)))
        except admission.REFUSED as refusal:
            await self._refuse_connection(connection, str(refusal))
            return
        session = self._sessions[connection] = _Session(connection, admitted.user_id,
                                                             admitted.expires_at)
        expiry = asyncio.get_running_loop().call_later(
            _delay(admitted.expires_at),
            lambda: asyncio.ensure_future(connection.close(4401, "The token has expired")))
        keep_alive = None
        try:
            async for text in connection:
                try:
                    message = json.loads(text)
                except ValueError:
                    message = None
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "connection_init":
                    await connection.send(json.dumps(
                        {"type": "connection_ack", "connectionTimeoutMs": CONNECTION_TIMEOUT_MS}))
                    if keep_alive is None:
                        keep_alive = asyncio.ensure_future(self._keep_alive(connection))
                elif kind == "subscribe":
                    await self._subscribe(session, message)
                elif kind == "publish":
                    await connection.send(_error(
                        "publish_error", "Only the publisher may publish.", id=message.get("id")))
                elif kind == "unsubscribe":
                    sub_id = message.get("id")
                    if not isinstance(sub_id, str) or not self._forget(session, sub_id):
                        await connection.send(json.dumps({
                            "type": "unsubscribe_error", "id": sub_id, "errors": [{
                                "errorType": "UnknownOperationError",
                                "message": "No such subscription."}]}))
                        continue
                    await connection.send(json.dumps({"type": "unsubscribe_success",
                                                      "id": sub_id}))
                else:
                    await connection.send(json.dumps({"type": "error", "errors": [{
                        "errorType": "UnsupportedOperation",
                        "message": f"Unsupported message type {kind!r} here."}]}))
        except ConnectionClosed:
            pass
        finally:
            expiry.cancel()
            if keep_alive is not None:
                keep_alive.cancel()
            for sub_id in list(session.channels):
                self._forget(session, sub_id)
            self._sessions.pop(connection, None)

    async def _refuse_connection(self, connection: ServerConnection, reason: str) -> None:
        """The handshake's answer to a bad token: connection_error to the client's first
        message (its connection_init), then close."""
        try:
            await asyncio.wait_for(connection.recv(), CONNECTION_INIT_WAIT_S)
            await connection.send(_error("connection_error", reason))
        except (asyncio.TimeoutError, ConnectionClosed):
            pass
        await connection.close(4401, "Unauthorized")

    async def _subscribe(self, session: _Session, message: dict) -> None:
        connection, sub_id = session.connection, message.get("id")
        if not isinstance(sub_id, str) or not sub_id or sub_id in session.channels:
            await connection.send(_error("subscribe_error", "A subscribe needs a new id.",
                                         id=sub_id))
            return
        channel = message.get("channel")
        group_id = (channel[len(admission.GROUP_PREFIX):] if isinstance(channel, str)
                    and channel.startswith(admission.GROUP_PREFIX) else None)
        revoked = (session.user_id, group_id)
        seen = self._revocations.get(revoked, 0)
        try:
            # Each subscribe carries its own authorization, checked like the AWS authorizer.
            admitted = await asyncio.to_thread(
                admission.subscribe, _token(message.get("authorization")), channel,
                user_id=session.user_id)
            if self._revocations.get(revoked, 0) != seen:
                raise ChannelRefused(REVOKED)
        except admission.REFUSED as refusal:
            await connection.send(_error("subscribe_error", str(refusal), id=sub_id))
            return
        if connection not in self._sessions:
            return  # closed while its subscribe was being checked
        channel = admitted.channels[0]
        session.channels[sub_id] = channel
        if admitted.expires_at < session.expires_at:  # else the connection's close ends it
            session.timers[sub_id] = asyncio.get_running_loop().call_later(
                _delay(admitted.expires_at),
                lambda: asyncio.ensure_future(self._end(session, sub_id, EXPIRED)))
        self._subscribers.setdefault(channel, set()).add((connection, sub_id))
        await connection.send(json.dumps({"type": "subscribe_success", "id": sub_id}))

    def _forget(self, session: _Session, sub_id: str) -> bool:
        """Stop delivering to a subscription; False when the connection has no such one."""
        channel = session.channels.pop(sub_id, None)
        timer = session.timers.pop(sub_id, None)
        if timer is not None:
            timer.cancel()
        if channel is None:
            return False
        self._subscribers.get(channel, set()).discard((session.connection, sub_id))
        return True

    async def _end(self, session: _Session, sub_id: str, reason: str) -> None:
        """End a subscription the server no longer allows, and tell its client why."""
        if self._forget(session, sub_id):
            try:
                await session.connection.send(_error("subscribe_error", reason, id=sub_id))
            except ConnectionClosed:
                pass

    async def _revoke(self, user_id: str, group_id: str) -> None:
        self._revocations[(user_id, group_id)] = self._revocations.get((user_id, group_id), 0) + 1
        channel = group_channel(group_id)
        for session in [s for s in self._sessions.values() if s.user_id == user_id]:
            for sub_id in [i for i, c in session.channels.items() if c == channel]:
                await self._end(session, sub_id, REVOKED)

    # --- the publisher's transport ---------------------------------------------------------
    async def _fan_out(self, channel: str, events: List[str]) -> None:
        for event in events:
            revoked = revocation(channel, event)
            if revoked is not None:  # before the poke goes out: the client may act on it
                await self._revoke(*revoked)
        targets = list(self._subscribers.get(channel, ()))

        async def send(connection: ServerConnection, sub_id: str) -> None:
            try:
                for event in events:
                    # This task runs after `targets` was taken: an unsubscribe (or a REVOKED
                    # end) answered in between must see no data after its reply.
                    if (connection, sub_id) not in self._subscribers.get(channel, ()):
                        return
                    await connection.send(json.dumps({"type": "data", "id": sub_id,
                                                      "event": event}))
            except ConnectionClosed:
                pass  # it went away: nothing to deliver to

        await asyncio.gather(*(send(c, s) for c, s in targets))

    def publish(self, channel: str, events: List[str]) -> None:
        """Deliver to every subscription on ``channel`` (waits, so order holds across calls)."""
        if self._loop is None:
            raise RuntimeError("the realtime server is not running")
        asyncio.run_coroutine_threadsafe(self._fan_out(channel, events),
                                         self._loop).result(PUBLISH_WAIT_S)

    def subscriber_count(self, channel: str) -> int:
        return len(self._subscribers.get(channel, ()))

    # --- life cycle -----------------------------------------------------------------------
    async def _main(self) -> None:
        self._stopped = asyncio.Event()
        async with serve(self._handle, self.host, self.port, subprotocols=[SUBPROTOCOL],
                         select_subprotocol=self._select, process_request=self._check_path,
                         compression=None, max_size=64 * 1024) as server:
            self.port = server.sockets[0].getsockname()[1]
            self._loop = asyncio.get_running_loop()
            self._ready.set()
            await self._stopped.wait()

    def start(self) -> "RealtimeServer":
        """Serve on a thread; raises what stopped it from starting (OSError: the port)."""
        failed: List[BaseException] = []

        def run() -> None:
            try:
                asyncio.run(self._main())
            except Exception as error:  # start() raises it, or the log keeps it
                if self._loop is None:
                    failed.append(error)
                else:
                    log.exception("local.realtime_failed")
            finally:
                self._ready.set()

        self._thread = threading.Thread(target=run, name="realtime-ws", daemon=True)
        self._thread.start()
        # No deadline: binding takes what a loaded machine gives it, and the thread sets
        # ready whichever way it ends.
        self._ready.wait()
        if failed:
            raise failed[0]
        if self._loop is None:
            raise RuntimeError("the realtime server did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
        if self._thread is not None:
            self._thread.join(timeout=5)
