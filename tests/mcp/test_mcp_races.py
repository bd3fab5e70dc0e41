"""MCP tool calls racing, with real threads against the serialized embedded DynamoDB endpoint."""
from __future__ import annotations

import pytest

from app.developer.limits import Limiter, Limits
from app.oauth import access_tokens
from tests.mcp.mcp_client import ACCEPT, grant_token, tool_error
from tests.support import threads

pytestmark = pytest.mark.race
ROUNDS = 3
RACERS = 4


@pytest.fixture
def live(live_db, tmp_path):
    """An app on the live endpoint, a user with a group, and a connection's token."""
    app = threads.live_app(live_db, tmp_path)
    access_tokens.grant_cache.clear()
    client = app.test_client()
    signed = client.post("/dev/tokens", json={"email": "racer@example.com"}).get_json()
    group = client.post("/groups", json={"name": "Race", "currency": "EUR"}, headers={
        "Authorization": f"Bearer {signed['accessToken']}"}).get_json()
    token, _ = grant_token(signed["userId"], resource="http://localhost/mcp")
    return app, token, group


def _add_expense(app, token, group, key):
    me = group["myParticipantId"]
    reply = app.test_client().post("/mcp", buffered=True, headers={
        "Authorization": f"Bearer {token}", "Accept": ACCEPT}, json={
        "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "add_expense", "arguments": {
                "groupId": group["groupId"], "description": "Race", "amount": "1.00",
                "payments": [{"participantId": me, "amount": "1.00"}], "splitMode": "EQUAL",
                "splits": [{"participantId": me}], "idempotencyKey": key}}})
    return reply.get_json()["result"]


def _expense_count(app, token, group) -> int:
    reply = app.test_client().post("/mcp", headers={
        "Authorization": f"Bearer {token}", "Accept": ACCEPT}, json={
        "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "list_expenses", "arguments": {"groupId": group["groupId"], "limit": 100}}})
    return len(reply.get_json()["result"]["structuredContent"]["items"])


def test_concurrent_calls_with_one_idempotency_key_write_one_expense(live):
    app, token, group = live
    for round_ in range(ROUNDS):
        results = threads.together([lambda: _add_expense(app, token, group, f"k{round_}")] * RACERS)
        ids = {r["structuredContent"]["expenseId"] for r in results if not r["isError"]}
        errors = {tool_error(r)["code"] for r in results if r["isError"]}
        assert len(ids) == 1, results  # every success is the one expense (the rest replay)
        assert errors <= {"IDEMPOTENCY_IN_PROGRESS"}, errors
        assert _expense_count(app, token, group) == round_ + 1


def test_concurrent_creates_never_pass_the_daily_allowance(live):
    app, token, group = live
    saved = app.extensions["developer"].limiter
    app.extensions["developer"].limiter = Limiter(Limits(daily_creates=2))
    try:
        results = threads.together([lambda i=i: _add_expense(app, token, group, f"c{i}")
                             for i in range(RACERS + 1)])
    finally:
        app.extensions["developer"].limiter = saved
    assert sum(not r["isError"] for r in results) == 2, results
    assert {tool_error(r)["code"] for r in results if r["isError"]} == {
        "RATE_LIMITED"}
    assert _expense_count(app, token, group) == 2
