"""Concurrent requests each log their own request and user ids (real threads, one app)."""
from __future__ import annotations

import json
import logging
import threading

import pytest

from app import create_app
from app.logs import logger


class _Collect(logging.Handler):
    """Formats records with the service's own JSON formatter, as CloudWatch would receive them."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logger.registered_formatter)
        self.lines: list = []
        self._lock = threading.Lock()

    def emit(self, record) -> None:
        line = json.loads(self.format(record))
        with self._lock:
            self.lines.append(line)


@pytest.fixture
def collect():
    handler = _Collect()
    logger.addHandler(handler)
    logger.setLevel("INFO")
    try:
        yield handler
    finally:
        logger.setLevel("WARNING")
        logger.removeHandler(handler)


def test_parallel_requests_log_their_own_ids(settings, sign_in, collect):
    users = {name: sign_in(f"{name}@example.com") for name in ("ann", "bob")}
    app = create_app(settings)  # its own app (same issuer key): the barrier stays in this test
    # Both requests have set their ids before either goes on to log: with one process-wide
    # context, whichever set its ids last would be on both lines.
    barrier = threading.Barrier(2, timeout=30)

    @app.before_request
    def both_authenticated() -> None:
        barrier.wait()

    replies, errors = {}, []

    def call(name: str) -> None:
        try:
            headers = {**users[name][0], "X-Request-Id": f"req-{name}"}
            replies[name] = app.test_client().get("/users/me", headers=headers).status_code
        except Exception as error:  # noqa: BLE001 — surfaced below; a thread's exception is otherwise lost
            errors.append(error)

    threads = [threading.Thread(target=call, args=(name,)) for name in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and replies == {"ann": 200, "bob": 200}
    request_lines = [line for line in collect.lines
                     if line.get("message") == "request" and line.get("path") == "/users/me"]
    assert len(request_lines) == 2, collect.lines
    for line in request_lines:
        name = line["client_request_id"].removeprefix("req-")
        assert line["user_id"] == users[name][1], request_lines
    assert {line["client_request_id"] for line in request_lines} == {"req-ann", "req-bob"}
    assert len({line["request_id"] for line in request_lines}) == 2


def test_ids_do_not_outlive_their_request(client, sign_in, collect):
    """A line logged on the same thread after a request carries none of its ids."""
    headers, _ = sign_in("after@example.com")
    assert client.get("/users/me", headers={**headers, "X-Request-Id": "req-1"}).status_code == 200
    logger.info("between requests")
    line = [entry for entry in collect.lines if entry.get("message") == "between requests"][-1]
    assert "request_id" not in line and "user_id" not in line
    assert "client_request_id" not in line
