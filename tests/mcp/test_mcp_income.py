"""add_expense understands income, ADJUSTMENT splits and the group's default split
(issue 45), through POST /mcp: the same rules as REST, amounts as decimal strings."""
from __future__ import annotations

from app.core.access import authorize
from app.groups import groups
from tests.mcp.mcp_client import mcp, module_aws, ok, tool_error  # noqa: F401 — fixtures

aws = module_aws  # this module's tests share one in-process DynamoDB


def _nets(mcp) -> dict:
    balances = ok(mcp.call("get_balances", {"groupId": mcp.group_id}))
    return {b["participantId"]: b["net"] for b in balances["balances"]}


def test_got_20_back_from_the_deposit_is_an_income(mcp):
    before = _nets(mcp)
    made = ok(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Deposit back", "amount": "20.00",
        "kind": "INCOME", "payments": [{"participantId": mcp.me, "amount": "20.00"}],
        "splitMode": "EQUAL", "splits": [{"participantId": mcp.me},
                                         {"participantId": mcp.guests[0]}]}))
    assert made["kind"] == "INCOME"
    after = _nets(mcp)
    assert after[mcp.me] - before[mcp.me] == -1000
    assert after[mcp.guests[0]] - before[mcp.guests[0]] == 1000


def test_adjustment_values_are_signed_decimal_strings(mcp):
    made = ok(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Cabin", "amount": "30.00",
        "payments": [{"participantId": mcp.me, "amount": "30.00"}],
        "splitMode": "ADJUSTMENT", "splits": [
            {"participantId": mcp.me, "value": "-2.50"},
            {"participantId": mcp.guests[0], "value": "2.50"},
            {"participantId": mcp.guests[1], "value": "0"}]}))
    assert [s["amount"] for s in made["items"][0]["splits"]] == [750, 1250, 1000]
    refused = tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Cabin", "amount": "30.00",
        "payments": [{"participantId": mcp.me, "amount": "30.00"}],
        "splitMode": "ADJUSTMENT", "splits": [{"participantId": mcp.me, "value": 250}]}))
    assert refused["code"] == "VALIDATION_ERROR"


def test_no_splits_uses_the_groups_default_split(mcp):
    refused = tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Rent", "amount": "9.00",
        "payments": [{"participantId": mcp.me, "amount": "9.00"}]}))
    assert refused["code"] == "VALIDATION_ERROR" and "defaultSplit" in refused["message"]
    groups.update_group(authorize(mcp.user_id, mcp.group_id, "OWNER"), default_split={
        "splitMode": "SHARES", "splits": [{"participantId": mcp.me, "value": 2},
                                          {"participantId": mcp.guests[1], "value": 1}]})
    made = ok(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Rent", "amount": "9.00",
        "payments": [{"participantId": mcp.me, "amount": "9.00"}]}))
    assert [(s["participantId"], s["amount"]) for s in made["items"][0]["splits"]] == [
        (mcp.me, 600), (mcp.guests[1], 300)]
    group = ok(mcp.call("get_group", {"groupId": mcp.group_id}))
    assert group["group"]["defaultSplit"]["splitMode"] == "SHARES"


def test_the_tool_schema_types_kind_and_adjustment(mcp):
    tools = {t["name"]: t for t in mcp.rpc("tools/list").get_json()["result"]["tools"]}
    properties = tools["add_expense"]["inputSchema"]["properties"]
    assert properties["kind"]["enum"] == ["EXPENSE", "INCOME"]
    assert "ADJUSTMENT" in properties["splitMode"]["enum"]
