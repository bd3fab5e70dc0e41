"""What the hosts people use need of the connector (issue 25): tool lists Anthropic's and
OpenAI's APIs accept, tool errors every SDK lets through, OAuth limits that do not lump a
host's users together by address, the transport's Origin rule, and the smaller points."""
from __future__ import annotations

import time

import pytest
from moto import mock_aws

import models
from app.developer.limits import Limiter, Limits
from tests.conftest import STAGE
from tests.mcp.conftest import RESOURCE
from tests.mcp.mcp_client import ACCEPT, mcp, tool_error  # noqa: F401 — mcp is a fixture
from tests.support.tables import create_all_tables

COMBINATORS = ("anyOf", "oneOf", "allOf", "not")
METADATA = ("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-authorization-server")


@pytest.fixture(scope="module")
def aws():
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        yield


@pytest.fixture
def limits(app):
    """Set the limits for one test, in one frozen minute (one window throughout)."""
    saved = app.extensions["developer"].limiter
    now = (int(time.time()) // 60) * 60 + 1.0

    def use(**values):
        app.extensions["developer"].limiter = Limiter(Limits(**values), clock=lambda: now)
    yield use
    app.extensions["developer"].limiter = saved


# --- tools/list --------------------------------------------------------------------------

def _properties(node, path=""):
    """Every (path, property schema) of a JSON Schema, nested objects and arrays included."""
    for name, prop in (node.get("properties") or {}).items():
        yield path + name, prop
        yield from _properties(prop, f"{path}{name}.")
        if isinstance(prop.get("items"), dict):
            yield from _properties(prop["items"], f"{path}{name}[].")


def test_every_tool_schema_is_flat_and_every_property_is_described(mcp):
    tools = mcp.rpc("tools/list").get_json()["result"]["tools"]
    assert len(tools) == 22  # tests/mcp/test_mcp_protocol.py EXPECTED_TOOLS
    for tool in tools:
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and not set(COMBINATORS) & set(schema), tool["name"]
        undescribed = [p for p, prop in _properties(schema) if not prop.get("description")]
        assert undescribed == [], (tool["name"], undescribed)
        assert "scope." not in tool["description"]  # no repeated "Needs the … scope."
        [scheme] = tool["_meta"]["securitySchemes"]
        assert scheme["type"] == "oauth2" and len(scheme["scopes"]) == 1
    texts = {t["name"]: t for t in tools}
    add = texts["add_expense"]["inputSchema"]["properties"]
    assert "today" in add["date"]["description"] and "FOOD" in add["category"]["description"]
    assert "get_group" in add["payments"]["items"]["properties"]["participantId"]["description"]
    assert "fromParticipantId" in texts["record_settlement"]["inputSchema"]["properties"][
        "payerId"]["description"]
    assert "version" in texts["update_expense"]["inputSchema"]["required"]


def test_money_must_be_a_positive_decimal_string(mcp):
    schema = {t["name"]: t for t in mcp.rpc("tools/list").get_json()["result"]["tools"]}
    import re
    pattern = schema["record_settlement"]["inputSchema"]["properties"]["amount"]["pattern"]
    assert re.match(pattern, "12.30") and not re.match(pattern, "-12.30")
    refused = tool_error(mcp.call("record_settlement", {
        "groupId": mcp.group_id, "payerId": mcp.guests[0], "payeeId": mcp.me,
        "amount": "-5.00"}))
    assert refused["code"] == "VALIDATION_ERROR" and "amount" in refused["details"]


def test_a_tool_error_has_no_structured_content_and_says_it_in_the_tools_units(mcp):
    result = mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "x", "amount": "5.001",
        "payments": [{"participantId": mcp.me, "amount": "5.001"}],
        "splitMode": "EQUAL", "splits": [{"participantId": mcp.me}]})
    assert result["isError"] is True and "structuredContent" not in result
    assert "EUR has 2 decimal places; send at most 2" in result["content"][0]["text"]
    unbalanced = tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "x", "amount": "5.00",
        "payments": [{"participantId": mcp.me, "amount": "4.99"}],
        "splitMode": "EQUAL", "splits": [{"participantId": mcp.me}]}))
    assert "4.99 EUR" in unbalanced["message"] and "499" not in unbalanced["message"]


def test_add_expense_states_the_items_or_shorthand_rule_and_the_server_keeps_it(mcp):
    both = tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "x", "amount": "5.00",
        "payments": [{"participantId": mcp.me, "amount": "5.00"}], "splitMode": "EQUAL",
        "splits": [{"participantId": mcp.me}],
        "items": [{"amount": "5.00", "splitMode": "EQUAL",
                   "splits": [{"participantId": mcp.me}]}]}))
    neither = tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "x",
        "payments": [{"participantId": mcp.me, "amount": "5.00"}]}))
    assert both["code"] == neither["code"] == "VALIDATION_ERROR"
    assert "items" in both["details"] and "splits" in neither["details"]


# --- transport -----------------------------------------------------------------------------

def test_an_untrusted_origin_is_refused_and_no_origin_is_allowed(mcp, app):
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert mcp.post(ping).status_code == 200  # a server-side host sends no Origin
    assert mcp.post(ping, headers={"Origin": "http://localhost"}).status_code == 200  # ours
    for origin in ("https://evil.example", "null", "https://claude.ai"):
        refused = mcp.post(ping, headers={"Origin": origin})
        assert refused.status_code == 403, origin
        assert refused.get_json()["error"]["code"] == -32600
    runtime = app.extensions["tailspend"]
    before = runtime.settings
    runtime.settings = before._replace(mcp_allowed_origins=("https://claude.ai",))
    try:
        assert mcp.post(ping, headers={"Origin": "https://claude.ai"}).status_code == 200
        assert mcp.post(ping, headers={"Origin": "https://evil.example"}).status_code == 403
    finally:
        runtime.settings = before


def test_a_202_has_no_html_content_type(mcp):
    reply = mcp.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert reply.status_code == 202 and reply.get_data() == b""
    assert "Content-Type" not in reply.headers


# --- OAuth ---------------------------------------------------------------------------------

def _register(client, name: str, **extra):
    reply = client.post("/oauth/register", json={
        "client_name": name, "redirect_uris": ["http://127.0.0.1:9/cb"], **extra})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def test_one_address_is_not_one_window(client, limits):
    """250 metadata reads and 140 token requests across clients from one address (the test
    client's): none refused for the address (the per-address limit is 120 a minute)."""
    limits(ip_per_minute=120, oauth_per_minute=120)
    for i in range(250):
        assert client.get(METADATA[i % 3]).status_code == 200, i
    client_ids = [_register(client, f"Host user {i}")["client_id"] for i in range(7)]
    for i in range(140):
        reply = client.post("/oauth/token", data={
            "grant_type": "authorization_code", "code": f"no-such-code-{i}",
            "code_verifier": "v" * 43, "redirect_uri": "http://127.0.0.1:9/cb",
            "client_id": client_ids[i % 7], "resource": RESOURCE})
        assert reply.status_code == 400 and reply.get_json()["error"] == "invalid_grant", i


def test_a_clients_own_window_answers_429_in_rfc_6749_shape(client, limits):
    limits(ip_per_minute=1000, oauth_per_minute=2)
    busy, other = (_register(client, name)["client_id"] for name in ("Busy", "Other"))
    form = {"grant_type": "authorization_code", "code": "nope", "code_verifier": "v" * 43,
            "redirect_uri": "http://127.0.0.1:9/cb", "resource": RESOURCE}
    for _ in range(2):
        assert client.post("/oauth/token", data={**form, "client_id": busy}).status_code == 400
    refused = client.post("/oauth/token", data={**form, "client_id": busy})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert refused.get_json()["error"] == "too_many_requests"
    assert refused.get_json()["error_description"]
    assert client.post("/oauth/token", data={**form, "client_id": other}).status_code == 400


def test_refreshes_spend_from_their_grants_window(oauth, client, limits):
    first, second = oauth.tokens("ann@example.com"), oauth.tokens("bob@example.com")
    limits(ip_per_minute=1000, oauth_per_minute=1)
    token = first["refresh_token"]
    rotated = oauth.refresh(token)
    assert rotated.status_code == 200, rotated.get_json()
    refused = oauth.refresh(rotated.get_json()["refresh_token"])
    assert refused.status_code == 429 and refused.get_json()["error"] == "too_many_requests"
    # The same client, another user's grant: its own window.
    assert oauth.refresh(second["refresh_token"]).status_code == 200


def test_a_per_address_429_on_an_oauth_page_is_rfc_6749_too(client, limits):
    limits(ip_per_minute=1)
    client.get("/oauth/authorize?client_id=x")
    refused = client.get("/oauth/authorize?client_id=x")
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert refused.get_json()["error"] == "too_many_requests"


def test_registration_keeps_the_software_id_and_version(client):
    registered = _register(client, "Claude", software_id="claude-ai",
                           software_version="2026.11")
    assert registered["software_id"] == "claude-ai"
    assert registered["software_version"] == "2026.11"


def test_an_unknown_client_id_at_the_token_endpoint_is_invalid_client(oauth, client):
    form = {"grant_type": "authorization_code", "code": "nope", "code_verifier": "v" * 43,
            "redirect_uri": "http://127.0.0.1:9/cb", "resource": RESOURCE}
    for client_id in ("00000000-0000-4000-8000-000000000000", "not-even-a-uuid"):
        reply = client.post("/oauth/token", data={**form, "client_id": client_id})
        assert reply.status_code == 401 and reply.get_json()["error"] == "invalid_client"
        assert reply.headers["WWW-Authenticate"].startswith("Bearer")
    known = client.post("/oauth/token", data={**form, "client_id": oauth.client_id})
    assert known.status_code == 400 and known.get_json()["error"] == "invalid_grant"
    refresh = client.post("/oauth/token", data={
        "grant_type": "refresh_token", "refresh_token": "nope",
        "client_id": "00000000-0000-4000-8000-000000000000"})
    assert refresh.status_code == 401 and refresh.get_json()["error"] == "invalid_client"
