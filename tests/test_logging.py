"""Request logs are structured JSON with request and user ids, and never carry credentials."""
from __future__ import annotations

import json

from app.logs import logger


def _log_lines(capfd) -> list:
    lines = []
    for line in capfd.readouterr().out.splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def test_request_log_has_request_and_user_ids_and_no_token(client, sign_in, capfd):
    headers, user_id = sign_in("logs@example.com")
    token = headers["Authorization"].split()[1]
    logger.setLevel("INFO")
    try:
        capfd.readouterr()
        reply = client.get("/users/me", headers={**headers, "X-Request-Id": "req-123"})
        assert reply.status_code == 200
        assert reply.headers["X-Request-Id"] == "req-123"
        output = _log_lines(capfd)
    finally:
        logger.setLevel("WARNING")
    request_lines = [line for line in output if line.get("message") == "request"]
    assert request_lines, output
    assert request_lines[-1]["request_id"] == "req-123"
    assert request_lines[-1]["user_id"] == user_id
    assert request_lines[-1]["status"] == 200
    assert token not in json.dumps(output)


def test_unexpected_errors_are_logged_but_never_returned(client, sign_in, capfd, monkeypatch):
    headers, _ = sign_in("crash@example.com")
    from app.services import users

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(users, "get_profile", explode)
    reply = client.get("/users/me", headers=headers)
    assert reply.status_code == 500
    body = reply.get_json()
    assert body == {"error": {"code": "INTERNAL", "message": "Something went wrong on our side.",
                              "details": {}}}
    assert "secret internals" not in reply.get_data(as_text=True)
