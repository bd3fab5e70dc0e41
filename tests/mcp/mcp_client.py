"""The MCP server tests' caller and fixture: a signed-in user with a group, and MCP tokens for them.

Tokens are minted by the authorization server's own function (app.oauth.access_tokens)
for an ACTIVE grant row, exactly what the OAuth flow ends with; the flow itself is tested by
the OAuth tests and end to end by test_mcp_sdk_e2e."""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import List

import pytest

from app.oauth import access_tokens
from models.users import McpGrant

RESOURCE = "http://localhost/mcp"
ALL = ("groups:read", "expenses:write", "settlements:write")
ACCEPT = "application/json, text/event-stream"


def grant_token(user_id: str, *, scopes=ALL, client_name: str = "OpenAI",
                resource: str = RESOURCE, status: str = "ACTIVE") -> tuple:
    """(token, grant id): an ACTIVE grant row and an access token bound to it."""
    grant_id = str(uuid.uuid4())
    McpGrant(*McpGrant.key(user_id, grant_id), GrantId=grant_id, Status=status,
             Client=client_name, Scopes=" ".join(scopes), Resource=resource).save()
    token = access_tokens.mint_access_token(user_id=user_id, grant_id=grant_id, scopes=scopes,
                                            client_name=client_name, resource=resource)
    return token, grant_id


def ok(result: dict) -> dict:
    """A tool result that succeeded: its structured content."""
    assert result["isError"] is False, result
    return result["structuredContent"]


@pytest.fixture(scope="module")
def module_aws():
    """One in-process DynamoDB for a whole module: a test module overrides the per-test
    ``aws`` fixture with it (``aws = module_aws``) when its tests share one set of tables."""
    from moto import mock_aws

    import models
    from tests.conftest import STAGE
    from tests.support.tables import create_all_tables

    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        yield


def tool_error(result: dict) -> dict:
    """The error a failed call reports in its text (``CODE: message {details}``): error
    results carry no structuredContent, which would have to match the outputSchema."""
    assert result["isError"] is True, result
    assert "structuredContent" not in result, result
    text = result["content"][0]["text"]
    code, _, rest = text.partition(": ")
    message, brace, details = rest.partition(" {")
    return {"code": code, "message": message,
            "details": json.loads(brace.strip() + details) if brace else {}}


@dataclass
class Mcp:
    """A caller of POST /mcp with one connection's token."""

    client: object
    token: str
    grant_id: str
    user_id: str
    group_id: str
    me: str
    email: str
    guests: List[str] = field(default_factory=list)
    next_id: int = 0

    def post(self, payload, *, token=None, headers=None):
        sent = {"Authorization": f"Bearer {token or self.token}", "Accept": ACCEPT,
                **(headers or {})}
        # buffered: the reply is closed at once, so its usage rows (written on close) land
        return self.client.post("/mcp", json=payload, headers=sent, buffered=True)

    def rpc(self, method: str, params=None, **kwargs):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        return self.post(message, **kwargs)

    def call(self, name: str, arguments=None, **kwargs) -> dict:
        """tools/call's result (asserting a 200 JSON-RPC success)."""
        reply = self.rpc("tools/call", {"name": name, "arguments": arguments or {}}, **kwargs)
        assert reply.status_code == 200, (reply.status_code, reply.get_data(as_text=True))
        body = reply.get_json()
        assert "result" in body, body
        return body["result"]


@pytest.fixture
def mcp(client, sign_in):
    """A new user (a fresh email: tables may be shared by a module) with a EUR group, two
    guests and an MCP connection holding every scope."""
    access_tokens.grant_cache.clear()
    email = f"ada-{uuid.uuid4().hex[:8]}@example.com"
    headers, user_id = sign_in(email, display_name="Ada")
    group = client.post("/groups", json={"name": "Trip", "currency": "EUR"},
                        headers=headers).get_json()
    guests = [client.post(f"/groups/{group['groupId']}/participants",
                          json={"displayName": name}, headers=headers).get_json()["participantId"]
              for name in ("Bob", "Cy")]
    token, grant_id = grant_token(user_id)
    return Mcp(client, token, grant_id, user_id, group["groupId"], group["myParticipantId"],
               email, guests)
