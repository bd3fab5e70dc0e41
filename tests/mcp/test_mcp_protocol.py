"""POST /mcp through the Flask test client: every method, every error class, every tool.

Tokens come from the authorization server's own minting function (see conftest); services
and tables are real (moto). One moto database serves the module (each test has its own user
and group), which keeps the module at a few seconds of set-up instead of one per test."""
from __future__ import annotations

from datetime import datetime, timezone

import jsonschema
import pytest
from hypothesis import given, settings, strategies as st

import models
from app.money.currencies import format_minor, parse_minor
from moto import mock_aws
from tests.conftest import STAGE
from tests.support.tables import create_all_tables
from app.developer.limits import Limiter, Limits
from tests.mcp.mcp_client import ACCEPT, grant_token, mcp, tool_error  # noqa: F401 — mcp is a fixture

EXPECTED_TOOLS = {"list_groups", "get_group", "get_balances", "list_expenses", "get_expense",
                  "list_settlements", "add_expense", "update_expense", "delete_expense",
                  "record_settlement", "settle_up", "delete_settlement", "add_comment",
                  "create_group", "add_guest", "set_household", "get_stats", "search_expenses",
                  "list_people_balances", "get_receipt", "explain_balance",
                  "settle_with_person"}
WRITES = EXPECTED_TOOLS - {"list_groups", "get_group", "get_balances", "list_expenses",
                           "get_expense", "list_settlements", "get_stats", "search_expenses",
                           "list_people_balances", "get_receipt", "explain_balance"}


@pytest.fixture(scope="module")
def aws():
    """This module's one in-process DynamoDB (overrides the per-test fixture)."""
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        yield


def _tools(mcp) -> dict:
    return {t["name"]: t for t in mcp.rpc("tools/list").get_json()["result"]["tools"]}


def _check_output(mcp, name: str, result: dict) -> dict:
    """The result is a success whose structuredContent matches the tool's outputSchema."""
    assert result["isError"] is False, result
    jsonschema.validate(result["structuredContent"], _tools(mcp)[name]["outputSchema"])
    assert result["content"][0]["type"] == "text"
    return result["structuredContent"]


def _expense(mcp, amount="12.30", *, key=None, among=None, token=None, **extra):
    arguments = {"groupId": mcp.group_id, "description": "Dinner",
                 "payments": [{"participantId": mcp.me, "amount": amount}], "amount": amount,
                 "splitMode": "EQUAL",
                 "splits": [{"participantId": p} for p in (among or [mcp.me, *mcp.guests])],
                 **extra}
    if key:
        arguments["idempotencyKey"] = key
    return mcp.call("add_expense", arguments, token=token)


_tool_error = tool_error


# --- protocol ----------------------------------------------------------------------------

def test_initialize_answers_the_clients_version_or_the_newest(mcp):
    for asked, answered in (("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05"),
                            ("2099-01-01", "2025-11-25")):
        reply = mcp.rpc("initialize", {"protocolVersion": asked, "capabilities": {},
                                       "clientInfo": {"name": "t", "version": "1"}},
                        headers={"Mcp-Session-Id": "whatever-the-client-had"})
        result = reply.get_json()["result"]
        assert reply.status_code == 200 and reply.mimetype == "application/json"
        assert result["protocolVersion"] == answered
        assert result["capabilities"] == {"tools": {"listChanged": False}}
        assert result["serverInfo"]["name"] == "tailspend"
        assert "Mcp-Session-Id" not in reply.headers  # stateless: no session is issued


def test_notifications_and_client_responses_get_202_without_a_body(mcp):
    for message in ({"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 7, "result": {}}):
        reply = mcp.post(message)
        assert reply.status_code == 202 and reply.get_data() == b""


def test_ping_answers_an_empty_result(mcp):
    assert mcp.rpc("ping").get_json() == {"jsonrpc": "2.0", "id": 1, "result": {}}


def test_tools_list_names_every_tool_with_valid_json_schemas(mcp):
    tools = _tools(mcp)
    assert set(tools) == EXPECTED_TOOLS
    for tool in tools.values():
        for key in ("inputSchema", "outputSchema"):
            jsonschema.Draft202012Validator.check_schema(tool[key])
            assert tool[key]["type"] == "object"
        assert tool["description"] and tool["annotations"]["readOnlyHint"] == (
            tool["name"] not in WRITES)
    money = tools["add_expense"]["inputSchema"]["properties"]["payments"]["items"]
    assert money["properties"]["amount"]["type"] == "string"


def test_batches_are_answered_for_versions_that_have_them(mcp):
    batch = [{"jsonrpc": "2.0", "id": "a", "method": "ping"},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": "b", "method": "nope"}]
    reply = mcp.post(batch)  # no MCP-Protocol-Version header: 2025-03-26, which had batches
    answers = {a["id"]: a for a in reply.get_json()}
    assert answers["a"]["result"] == {} and answers["b"]["error"]["code"] == -32601
    later = mcp.post(batch, headers={"MCP-Protocol-Version": "2025-06-18"}).get_json()
    assert later["error"]["code"] == -32600
    assert mcp.post([]).get_json()["error"]["code"] == -32600
    only_notes = mcp.post([{"jsonrpc": "2.0", "method": "notifications/initialized"}])
    assert only_notes.status_code == 202
    init = mcp.post([{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-03-26"}}]).get_json()
    assert init[0]["error"]["code"] == -32600  # initialize must not be batched


def test_parse_error_is_400_with_code_32700(mcp):
    reply = mcp.client.post("/mcp", data="{not json", content_type="application/json",
                            headers={"Authorization": f"Bearer {mcp.token}", "Accept": ACCEPT})
    assert reply.status_code == 400
    assert reply.get_json()["error"]["code"] == -32700 and reply.get_json()["id"] is None


@pytest.mark.parametrize("message", [
    {"id": 1, "method": "ping"},                       # no jsonrpc
    {"jsonrpc": "1.0", "id": 1, "method": "ping"},
    {"jsonrpc": "2.0", "id": None, "method": "ping"},  # MCP ids are never null
    {"jsonrpc": "2.0", "id": 1, "method": 5},
    {"jsonrpc": "2.0", "id": 1},
    "ping", 5,
])
def test_invalid_requests_are_code_32600(mcp, message):
    reply = mcp.post(message)
    assert reply.status_code == 200 and reply.get_json()["error"]["code"] == -32600


def test_unknown_methods_are_code_32601(mcp):
    body = mcp.rpc("resources/list").get_json()
    assert body["error"]["code"] == -32601 and body["id"] == 1


@pytest.mark.parametrize("method,params", [
    ("tools/call", {"name": "no_such_tool", "arguments": {}}),
    ("tools/call", {"name": "list_groups", "arguments": [1]}),
    ("tools/call", {"arguments": {}}),
    ("initialize", {"capabilities": {}}),
    ("ping", [1, 2]),
])
def test_bad_params_are_code_32602(mcp, method, params):
    body = mcp.post({"jsonrpc": "2.0", "id": 9, "method": method, "params": params}).get_json()
    assert body["error"]["code"] == -32602 and body["id"] == 9


def test_http_level_refusals(mcp):
    auth = {"Authorization": f"Bearer {mcp.token}"}
    assert mcp.client.get("/mcp", headers=auth).status_code == 405
    reply = mcp.rpc("ping", headers={"MCP-Protocol-Version": "1999-01-01"})
    assert reply.status_code == 400 and reply.get_json()["error"]["code"] == -32600
    assert mcp.rpc("ping", headers={"Accept": "text/html"}).status_code == 406
    reply = mcp.client.post("/mcp", data="ping", content_type="text/plain",
                            headers={"Authorization": f"Bearer {mcp.token}"})
    assert reply.status_code == 415 and reply.get_json()["jsonrpc"] == "2.0"


# --- auth ------------------------------------------------------------------------------------

def _challenge(reply) -> str:
    assert reply.status_code == 401, reply.get_data(as_text=True)
    header = reply.headers["WWW-Authenticate"]
    assert header.startswith("Bearer ")
    assert 'resource_metadata="http://localhost/.well-known/oauth-protected-resource"' in header
    assert 'scope="groups:read expenses:write settlements:write"' in header
    return header


def test_no_token_is_401_naming_the_resource_metadata(mcp):
    reply = mcp.client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                          "params": {"protocolVersion": "2025-06-18"}},
                            headers={"Accept": ACCEPT})
    assert "error=" not in _challenge(reply)


def test_app_tokens_pats_and_garbage_are_refused(mcp, sign_in, client):
    app_headers, _ = sign_in(mcp.email)
    pat = client.post("/developer/tokens", headers=app_headers,
                      json={"name": "s", "scopes": ["groups:read"]}).get_json()["token"]
    for token in (app_headers["Authorization"].split()[1], pat, "garbage"):
        assert 'error="invalid_token"' in _challenge(mcp.rpc("ping", token=token))


def test_a_token_for_another_resource_is_refused(mcp):
    token, _ = grant_token(mcp.user_id, resource="https://elsewhere.example/mcp")
    _challenge(mcp.rpc("ping", token=token))


def test_a_revoked_connection_is_refused(mcp):
    token, _ = grant_token(mcp.user_id, status="REVOKED")
    _challenge(mcp.rpc("ping", token=token))


def test_mcp_tokens_are_refused_by_rest_routes(mcp):
    reply = mcp.client.get("/users/me/groups", headers={"Authorization": f"Bearer {mcp.token}"})
    assert reply.status_code == 401


def test_a_scope_too_narrow_is_403_insufficient_scope_per_call(mcp):
    token, _ = grant_token(mcp.user_id, scopes=("groups:read",))
    assert mcp.call("list_groups", token=token)["isError"] is False  # reads still work
    reply = mcp.rpc("tools/call", {"name": "add_expense", "arguments": {}}, token=token)
    assert reply.status_code == 403
    header = reply.headers["WWW-Authenticate"]
    assert 'error="insufficient_scope"' in header
    assert 'scope="expenses:write groups:read"' in header and "resource_metadata=" in header
    assert mcp.rpc("tools/call", {"name": "record_settlement", "arguments": {}},
                   token=token).status_code == 403


# --- tools -------------------------------------------------------------------------------

def test_list_groups_and_get_group(mcp):
    listed = _check_output(mcp, "list_groups", mcp.call("list_groups"))
    assert [g["groupId"] for g in listed["items"]] == [mcp.group_id]
    assert listed["items"][0]["myNetFormatted"] == "0.00 EUR"
    roster = _check_output(mcp, "get_group", mcp.call("get_group", {"groupId": mcp.group_id}))
    assert roster["group"]["myRole"] == "OWNER"
    assert {p["participantId"] for p in roster["participants"]} == {mcp.me, *mcp.guests}


def test_add_expense_then_balances_show_it_in_minor_units_and_formatted(mcp):
    expense = _check_output(mcp, "add_expense", _expense(mcp, "12.31"))
    assert expense["amount"] == 1231 and expense["amountFormatted"] == "12.31 EUR"
    assert sorted(s["amount"] for s in expense["items"][0]["splits"]) == [410, 410, 411]
    balances = _check_output(mcp, "get_balances", mcp.call("get_balances",
                                                           {"groupId": mcp.group_id}))
    nets = {b["participantId"]: (b["net"], b["netFormatted"]) for b in balances["balances"]}
    assert nets[mcp.me] == (820, "8.20 EUR")  # paid 12.31, owes 4.11 (first in list order)
    assert sum(t["amount"] for t in balances["transfers"]) == 820


def test_exact_splits_take_decimal_strings(mcp):
    result = mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Taxi",
        "payments": [{"participantId": mcp.me, "amount": "10"}],
        "items": [{"name": "Taxi", "amount": "10.00", "splitMode": "EXACT",
                   "splits": [{"participantId": mcp.me, "value": "2.5"},
                              {"participantId": mcp.guests[0], "value": "7.50"}]}]})
    splits = _check_output(mcp, "add_expense", result)["items"][0]["splits"]
    assert sorted(s["amount"] for s in splits) == [250, 750]
    wrong = _tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Taxi",
        "payments": [{"participantId": mcp.me, "amount": "10"}], "amount": "10",
        "splitMode": "EXACT", "splits": [{"participantId": mcp.me, "value": 1000}]}))
    assert wrong["code"] == "VALIDATION_ERROR" and "splits.0.value" in wrong["details"]


def test_more_decimals_than_the_currency_has_are_refused_not_rounded(mcp):
    error = _tool_error(_expense(mcp, "12.305"))
    assert error["code"] == "VALIDATION_ERROR" and "payments.0.amount" in error["details"]
    # Another currency is its own exponent's (issue 22: no longer refused as not the group's).
    assert _tool_error(_expense(mcp, "12.305", currency="USD"))["details"]["payments.0.amount"] == [
        "USD has 2 decimal places; send at most 2."]
    assert mcp.call("list_expenses", {"groupId": mcp.group_id})["structuredContent"]["items"] == []


def test_zero_and_three_decimal_currencies(mcp, sign_in, client):
    for currency, amount, minor, shown in (("JPY", "1500", 1500, "1500 JPY"),
                                           ("BHD", "1.234", 1234, "1.234 BHD")):
        group = client.post("/groups", json={"name": currency, "currency": currency},
                            headers=sign_in(mcp.email)[0]).get_json()
        result = mcp.call("add_expense", {
            "groupId": group["groupId"], "description": "x", "amount": amount,
            "payments": [{"participantId": group["myParticipantId"], "amount": amount}],
            "splitMode": "EQUAL", "splits": [{"participantId": group["myParticipantId"]}]})
        expense = _check_output(mcp, "add_expense", result)
        assert (expense["amount"], expense["amountFormatted"]) == (minor, shown)
        assert _tool_error(mcp.call("add_expense", {
            "groupId": group["groupId"], "description": "x", "amount": amount + "1" * 0 + ".0001",
            "payments": [{"participantId": group["myParticipantId"], "amount": "1"}],
            "splitMode": "EQUAL", "splits": [{"participantId": group["myParticipantId"]}]
        }))["code"] == "VALIDATION_ERROR"


def test_list_expenses_filters_and_pages_with_a_cursor(mcp):
    for day in ("2026-11-01", "2026-11-02", "2026-11-03"):
        assert _expense(mcp, "3.00", date=day)["isError"] is False
    first = _check_output(mcp, "list_expenses", mcp.call("list_expenses", {
        "groupId": mcp.group_id, "from": "2026-11-02", "limit": 1}))
    assert [e["date"] for e in first["items"]] == ["2026-11-03"] and first["nextCursor"]
    second = mcp.call("list_expenses", {"groupId": mcp.group_id, "from": "2026-11-02",
                                        "limit": 1, "cursor": first["nextCursor"]})
    assert [e["date"] for e in second["structuredContent"]["items"]] == ["2026-11-02"]
    forged = mcp.call("list_expenses", {"groupId": mcp.group_id, "cursor": first["nextCursor"]})
    assert _tool_error(forged)["code"] == "VALIDATION_ERROR"  # a cursor of another listing


def test_record_settlement_moves_the_balance(mcp):
    _expense(mcp, "30.00")
    result = mcp.call("record_settlement", {"groupId": mcp.group_id, "payerId": mcp.guests[0],
                                            "payeeId": mcp.me, "amount": "10.00"})
    assert _check_output(mcp, "record_settlement", result)["amountFormatted"] == "10.00 EUR"
    nets = {b["participantId"]: b["net"] for b in mcp.call(
        "get_balances", {"groupId": mcp.group_id})["structuredContent"]["balances"]}
    assert nets[mcp.guests[0]] == 0 and nets[mcp.me] == 1000


def test_add_comment(mcp):
    expense_id = _expense(mcp)["structuredContent"]["expenseId"]
    result = mcp.call("add_comment", {"groupId": mcp.group_id, "expenseId": expense_id,
                                      "body": "Thanks!"})
    assert _check_output(mcp, "add_comment", result)["body"] == "Thanks!"
    missing = mcp.call("add_comment", {"groupId": mcp.group_id, "body": "x",
                                       "expenseId": "00000000-0000-4000-8000-000000000000"})
    assert _tool_error(missing)["code"] == "NOT_FOUND"


def test_tools_act_with_the_users_own_group_roles(mcp, sign_in, client):
    stranger_headers, stranger_id = sign_in(f"eve-{mcp.grant_id[:8]}@example.com")
    token, _ = grant_token(stranger_id)
    for name, arguments in (("get_group", {"groupId": mcp.group_id}),
                            ("get_balances", {"groupId": mcp.group_id}),
                            ("list_expenses", {"groupId": mcp.group_id})):
        assert _tool_error(mcp.call(name, arguments, token=token))["code"] == "NOT_FOUND"
    # Once a VIEWER, the stranger may read and comment but not add expenses, as on REST.
    owner = sign_in(mcp.email)[0]
    base = f"/groups/{mcp.group_id}"
    code = client.patch(base + "/invite", json={"enabled": True}, headers=owner).get_json()["code"]
    asked = client.post(base + "/join-requests", json={"code": code, "mode": "NEW"},
                        headers=stranger_headers).get_json()
    approved = client.post(f"{base}/join-requests/{asked['requestId']}/approve",
                           json={"role": "VIEWER"}, headers=owner)
    assert approved.status_code == 200, approved.get_json()
    assert mcp.call("get_group", {"groupId": mcp.group_id}, token=token)["isError"] is False
    assert _tool_error(_expense(mcp, token=token))["code"] == "FORBIDDEN"
    expense_id = _expense(mcp)["structuredContent"]["expenseId"]
    assert mcp.call("add_comment", {"groupId": mcp.group_id, "expenseId": expense_id,
                                    "body": "seen"}, token=token)["isError"] is False


def test_invalid_arguments_are_tool_errors_the_assistant_can_read(mcp):
    result = mcp.call("get_balances", {"groupId": "not-a-uuid", "extra": 1})
    error = _tool_error(result)
    assert error["code"] == "VALIDATION_ERROR" and set(error["details"]) == {"groupId", "extra"}
    assert result["content"][0]["text"].startswith("VALIDATION_ERROR:")
    unbalanced = _tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "x", "amount": "5.00",
        "payments": [{"participantId": mcp.me, "amount": "4.99"}],
        "splitMode": "EQUAL", "splits": [{"participantId": mcp.me}]}))
    assert unbalanced["code"] == "VALIDATION_ERROR"  # the service's own money rule


def test_an_idempotency_key_replays_the_first_result_and_writes_once(mcp):
    first = _expense(mcp, key="dinner-1")["structuredContent"]
    again = _expense(mcp, key="dinner-1")["structuredContent"]
    assert again == first
    items = mcp.call("list_expenses", {"groupId": mcp.group_id})["structuredContent"]["items"]
    assert [e["expenseId"] for e in items] == [first["expenseId"]]
    assert _tool_error(_expense(mcp, "9.99", key="dinner-1"))["code"] == "IDEMPOTENCY_KEY_REUSED"


def test_a_failed_first_call_frees_its_idempotency_key(mcp):
    stranger = "00000000-0000-4000-8000-000000000000"  # in no group: the service refuses it
    assert _tool_error(_expense(mcp, key="lunch-1", among=[mcp.me, stranger]))["code"] != (
        "IDEMPOTENCY_KEY_REUSED")
    retry = _expense(mcp, "7.00", key="lunch-1")  # other arguments: the key was freed
    assert retry["isError"] is False, retry


# --- budget and usage --------------------------------------------------------------------

@pytest.fixture
def tight_budget(app):
    saved = app.extensions["developer"].limiter
    app.extensions["developer"].limiter = Limiter(Limits(daily_creates=1, daily_requests=3))
    yield
    app.extensions["developer"].limiter = saved


def test_creates_share_the_daily_allowance_and_over_budget_is_a_tool_error(mcp, tight_budget):
    assert _expense(mcp)["isError"] is False
    error = _tool_error(_expense(mcp))
    assert error["code"] == "RATE_LIMITED" and error["details"]["policy"] == "day"
    assert error["details"]["retryAfter"] > 0
    assert mcp.call("list_groups")["isError"] is False  # a refused call spends nothing
    assert mcp.call("list_groups")["isError"] is False  # request 3 of 3
    assert _tool_error(mcp.call("list_groups"))["code"] == "RATE_LIMITED"


def test_usage_rows_name_the_grant_and_the_client(mcp, sign_in):
    _expense(mcp)
    _tool_error(mcp.call("get_group", {"groupId": "00000000-0000-4000-8000-000000000000"}))
    mcp.call("list_groups")
    today = datetime.now(timezone.utc).date().isoformat()
    rows = mcp.client.get(f"/users/me/usage?from={today}&to={today}",
                          headers=sign_in(mcp.email)[0]).get_json()["items"]
    assert rows == [{"day": today, "tokenId": mcp.grant_id, "name": "OpenAI", "requests": 3,
                     "creates": 1, "errors": 1}]


# --- money conversion ----------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(currency=st.sampled_from(["JPY", "EUR", "BHD"]),
       amount=st.integers(min_value=-10**15, max_value=10**15))
def test_format_then_parse_round_trips_exactly(currency, amount):
    assert parse_minor(format_minor(amount, currency), currency) == amount


@settings(max_examples=200, deadline=None)
@given(currency=st.sampled_from(["JPY", "EUR", "BHD"]), whole=st.integers(0, 10**9),
       fraction=st.text("0123456789", min_size=1, max_size=6))
def test_decimals_beyond_the_currency_are_refused(currency, whole, fraction):
    exponent = {"JPY": 0, "EUR": 2, "BHD": 3}[currency]
    text = f"{whole}.{fraction}"
    if len(fraction) > exponent:
        with pytest.raises(ValueError):
            parse_minor(text, currency)
    else:
        assert parse_minor(text, currency) == whole * 10 ** exponent + int(
            fraction.ljust(exponent, "0"))


# --- with the authorization server's real flow -----------------------------------------------

def test_a_token_from_the_oauth_flow_works_until_the_user_disconnects(oauth, client, sign_in):
    token = oauth.tokens("ann@example.com")["access_token"]
    headers = {"Authorization": f"Bearer {token}", "Accept": ACCEPT}
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert client.post("/mcp", json=ping, headers=headers).get_json()["result"] == {}
    # The flow asked for groups:read expenses:write (no settlements:write).
    denied = client.post("/mcp", headers=headers, json={
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "record_settlement", "arguments": {}}})
    assert denied.status_code == 403
    app_headers = sign_in("ann@example.com")[0]
    [connection] = client.get("/users/me/connections", headers=app_headers).get_json()["items"]
    assert client.delete(f"/users/me/connections/{connection['grantId']}",
                         headers=app_headers).status_code == 204
    assert client.post("/mcp", json=ping, headers=headers).status_code == 401
