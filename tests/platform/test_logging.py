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
        output = collect.lines
    finally:
        logger.setLevel("WARNING")
        logger.removeHandler(collect)
    request_lines = [line for line in output if line.get("message") == "request"]
    assert request_lines, output
    line = request_lines[-1]
    # The id is ours (no platform here: a fresh UUID), the caller's is its own field.
    assert line["request_id"] == reply.headers["X-Request-Id"] != "req-123"
    assert line["client_request_id"] == "req-123"
    assert line["user_id"] == user_id
    assert line["status"] == 200
    assert isinstance(line["latency_ms"], float) and 0 <= line["latency_ms"] < 10_000
    assert token not in json.dumps(output)


def test_unexpected_errors_are_never_returned_to_the_caller(client, sign_in, monkeypatch):
    headers, _ = sign_in("crash@example.com")
    from app.users import profiles as users

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(users, "get_profile", explode)
    reply = client.get("/users/me", headers=headers)
    assert reply.status_code == 500
    body = reply.get_json()
    assert body == {"error": {"code": "INTERNAL", "message": "Something went wrong on our side.",
                              "details": {}}}
    assert "secret internals" not in reply.get_data(as_text=True)


def test_a_client_request_id_is_capped_and_printable_only():
    from app.logs import MAX_CLIENT_REQUEST_ID, client_request_id
    assert client_request_id("a\nb\x1b[31m c") == "a?b?[31m?c"
    assert len(client_request_id("x" * 1000)) == MAX_CLIENT_REQUEST_ID
    assert client_request_id("") is None and client_request_id(None) is None


def test_the_platform_request_id_is_api_gateways_else_the_invocations():
    from types import SimpleNamespace

    from app.logs import platform_request_id
    context = SimpleNamespace(aws_request_id="lambda-1")
    assert platform_request_id({"requestContext": {"requestId": "apigw-1"}}, context) == "apigw-1"
    assert platform_request_id({}, context) == "lambda-1"
    assert platform_request_id(None, None) is None


def test_share_link_tokens_never_reach_the_logs(client, sign_in):
    """A link's token and a session token go in bodies and headers only; and a line that
    quoted one by accident (a message, an extra field) is redacted by the logger's filter."""
    headers, _ = sign_in("logs-links@example.com")
    gid = client.post("/groups", json={"name": "Logs", "currency": "EUR"},
                      headers=headers).get_json()["groupId"]
    guest = client.post(f"/groups/{gid}/participants", json={"displayName": "Gus"},
                        headers=headers).get_json()["participantId"]
    collect = _Collect()
    logger.addHandler(collect)
    logger.setLevel("INFO")
    try:
        token = client.post(f"/groups/{gid}/links", json={"role": "MEMBER"},
                            headers=headers).get_json()["token"]
        session = client.post("/links/session", json={"token": token, "participantId": guest})
        access_token = session.get_json()["accessToken"]
        assert client.get(f"/groups/{gid}", headers={
            "Authorization": f"Bearer {access_token}"}).status_code == 200
        logger.warning(f"quoted {token}", extra={"detail": f"Bearer {access_token}"})
        output = json.dumps(collect.lines)
    finally:
        logger.setLevel("WARNING")
        logger.removeHandler(collect)
    assert "request" in output and "[redacted]" in output
    assert token not in output and access_token not in output
    secret = token.split("_", 3)[3]  # tsl_<groupId>_<linkId>_<secret>: the secret may hold "_"
    assert len(secret) == 43 and secret not in output


def test_a_line_says_what_its_log_group_does_not_and_where_only_when_someone_reads_it():
    """CloudWatch bills log bytes (bench/cost_bench.py): the function's name, ARN and memory and
    the service are the log group's, cold_start is said only when true, and the code location
    only on warnings and errors, where someone reads it."""
    from tests.support.lambda_context import lambda_context

    collect = _Collect()
    logger.addHandler(collect)
    logger.setLevel("INFO")
    context = lambda_context(function_name="tailspend-test-api")
    try:
        @logger.inject_lambda_context
        def handler(event, _context):
            logger.info("first")
            logger.warning("careful")

        handler({}, context)
        handler({}, context)
    finally:
        logger.setLevel("WARNING")
        logger.removeHandler(collect)
    first, careful, again, _ = collect.lines
    for line in collect.lines:
        assert not {"function_name", "function_arn", "function_memory_size", "service"} & set(line)
        assert line["function_request_id"] == context.aws_request_id
    assert "cold_start" not in again  # the second invocation is warm
    assert "location" not in first and careful["location"].startswith("handler:")
    said = json.loads(logger.registered_formatter.serialize(
        {"level": "INFO", "message": "m", "cold_start": True, "location": "f:1"}))
    assert said == {"level": "INFO", "message": "m", "cold_start": True}
