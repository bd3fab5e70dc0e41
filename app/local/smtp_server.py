"""Local mode's SMTP server (aiosmtpd): what the app sends through smtplib arrives here, as it
would at any relay, and GET /dev/mail reads it back. Kept in memory, newest first, bounded:
nothing leaves the machine. aiosmtpd is a local-mode dependency, never in the Lambda package.
"""
from __future__ import annotations

import itertools
import threading
from collections import deque
from datetime import datetime, timezone
from email import message_from_bytes, policy
from typing import List, Optional

KEPT = 500  # the newest messages kept; older ones fall off


def _parts(message) -> tuple:
    text = html = None
    for part in message.walk():
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        if part.get_content_type() == "text/plain" and text is None:
            text = part.get_content()
        elif part.get_content_type() == "text/html" and html is None:
            html = part.get_content()
    return text, html


class Mailbox:
    """What arrived, newest first (thread-safe: the SMTP loop writes, requests read)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: deque = deque(maxlen=KEPT)
        self._ids = itertools.count(1)

    def add(self, sender: str, recipients: List[str], raw: bytes) -> dict:
        message = message_from_bytes(raw, policy=policy.default)
        text, html = _parts(message)
        with self._lock:
            item = {"id": f"{next(self._ids):08d}",
                    "receivedAt": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z",
                    "from": sender, "to": list(recipients), "subject": str(message["Subject"] or ""),
                    "headers": {name: str(value) for name, value in message.items()},
                    "text": text, "html": html, "raw": raw.decode("utf-8", "replace")}
            self._items.appendleft(item)
        return item

    def page(self, limit: int, before: Optional[str]) -> tuple:
        """(items newest first, the id to continue before or None)."""
        with self._lock:
            items = [item for item in self._items if before is None or item["id"] < before]
        page = items[:limit]
        return page, (page[-1]["id"] if len(items) > limit else None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def get(self, mail_id: str) -> Optional[dict]:
        with self._lock:
            return next((item for item in self._items if item["id"] == mail_id), None)


MAILBOX = Mailbox()
_running: dict = {}


class _Handler:
    def __init__(self, mailbox: Mailbox) -> None:
        self.mailbox = mailbox

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        self.mailbox.add(envelope.mail_from, envelope.rcpt_tos, envelope.original_content
                         or envelope.content)
        return "250 Message accepted for delivery"


class SmtpServer:
    """The embedded server, started on ``port`` (0: a free one, known after start)."""

    def __init__(self, host: str, port: int, mailbox: Mailbox = MAILBOX) -> None:
        from aiosmtpd.controller import Controller

        server = self

        class _FreePortController(Controller):
            def _trigger_server(self):
                # port 0 asks the OS for a free port: learn it before aiosmtpd connects to it
                self.port = self.server.sockets[0].getsockname()[1]
                server.port = self.port
                super()._trigger_server()

        self.host, self.port = host, port
        self._controller = _FreePortController(_Handler(mailbox), hostname=host, port=port)

    def start(self) -> "SmtpServer":
        self._controller.start()
        _running["server"] = self
        return self

    def stop(self) -> None:
        _running.pop("server", None)
        self._controller.stop()

    @property
    def url(self) -> str:
        return f"smtp://{self.host}:{self.port}"


def running() -> Optional[SmtpServer]:
    return _running.get("server")
