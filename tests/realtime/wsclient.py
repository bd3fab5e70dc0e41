"""A realtime client for tests: the third-party ``websockets`` client speaking the AppSync
Events protocol (header auth in the subprotocol, as Amplify's events API sends it)."""
from __future__ import annotations

import base64
import json
import uuid
from collections import deque

from websockets.sync.client import connect


def header_protocol(host: str, token: str) -> str:
    raw = json.dumps({"host": host, "Authorization": token}).encode()
    return "header-" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


class Client:
    def __init__(self, issued: dict, token: str | None = None) -> None:
        self.issued, self.token = issued, token or issued["token"]
        self._connection = connect(issued["url"], subprotocols=[
            "aws-appsync-event-ws", header_protocol(issued["host"], self.token)],
            open_timeout=10)
        self.ws = self._connection.__enter__()  # the documented context-manager use
        self._backlog: deque = deque()  # messages read past while waiting for a reply

    def receive(self, timeout: float = 10.0) -> dict:
        if self._backlog:
            return self._backlog.popleft()
        while True:
            message = json.loads(self.ws.recv(timeout=timeout))
            if message["type"] != "ka":
                return message

    def init(self) -> dict:
        self.ws.send(json.dumps({"type": "connection_init"}))
        return self.receive()

    def subscribe(self, channel: str, token: str | None = None) -> dict:
        sub_id = str(uuid.uuid4())
        self.ws.send(json.dumps({"type": "subscribe", "id": sub_id, "channel": channel,
                                 "authorization": {"host": self.issued["host"],
                                                   "Authorization": token or self.token}}))
        passed = []
        reply = self.receive()
        while reply["type"] == "data" and reply["id"] != sub_id:  # a poke of an earlier one
            passed.append(reply)
            reply = self.receive()
        self._backlog.extendleft(reversed(passed))  # kept in the order they came
        assert reply["id"] == sub_id
        return reply

    def poke(self, timeout: float = 10.0) -> dict:
        """The next data message's event, decoded."""
        message = self.receive(timeout)
        assert message["type"] == "data", message
        return json.loads(message["event"])

    def close(self) -> None:
        self._connection.__exit__(None, None, None)
