"""Request logs are structured JSON with request and user ids, and never carry credentials."""
from __future__ import annotations

import json
import logging

from app.logs import logger


class _Collect(logging.Handler):
    """Formats records with the service's own JSON formatter, as CloudWatch would receive them."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logger.registered_formatter)
        self.lines: list = []

    def emit(self, record) -> None:
        self.lines.append(json.loads(self.format(record)))


def test_request_log_has_request_and_user_ids_and_no_token(client, sign_in):
    headers, user_id = sign_in("logs@example.com")
    token = headers["Authorization"].split()[1]
    collect = _Collect()
    logger.addHandler(collect)
    logger.setLevel("INFO")
    try:
        reply = client.get("/users/me", headers={**headers, "X-Request-Id": "req-123"})
        assert reply.status_code == 200
        assert reply.headers["X-Request-Id"] == "req-123"
        output = collect.lines
    finally:
        logger.setLevel("WARNING")
        logger.removeHandler(collect)
    request_lines = [line for line in output if line.get("message") == "request"]
    assert request_lines, output
    assert request_lines[-1]["request_id"] == "req-123"
    assert request_lines[-1]["user_id"] == user_id
    assert request_lines[-1]["status"] == 200
    assert token not in json.dumps(output)


def test_unexpected_errors_are_never_returned_to_the_caller(client, sign_in, monkeypatch):
    headers, _ = sign_in("crash@example.com")
    from app.services.users import profiles as users

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(users, "get_profile", explode)
    reply = client.get("/users/me", headers=headers)
    assert reply.status_code == 500
    body = reply.get_json()
    assert body == {"error": {"code": "INTERNAL", "message": "Something went wrong on our side.",
                              "details": {}}}
    assert "secret internals" not in reply.get_data(as_text=True)
