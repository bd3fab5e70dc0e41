"""add_expense's extras (tax, tip, discount as signed decimal strings) and set_household,
through POST /mcp (issue 45: every door)."""
from __future__ import annotations

from tests.mcp.mcp_client import mcp, module_aws, ok, tool_error  # noqa: F401 — fixtures

aws = module_aws  # this module's tests share one in-process DynamoDB


def test_add_expense_takes_a_tip_and_a_discount_in_decimals(mcp):
    bob, cy = mcp.guests
    made = ok(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Dinner", "amount": "31.00",
        "payments": [{"participantId": mcp.me, "amount": "31.00"}], "splitMode": "EQUAL",
        "splits": [{"participantId": p} for p in (mcp.me, bob, cy)],
        "extras": [{"name": "tip", "amount": "3.00"}, {"name": "discount", "amount": "-2.00"}]}))
    assert made["amount"] == 3100 and made["items"][0]["amount"] == 3000
    # The discount floors toward -inf (-67 each), its leftover unit to the first: me.
    assert [(x["name"], x["amount"], [s["amount"] for s in x["shares"]])
            for x in made["extras"]] == [("tip", 300, [100, 100, 100]),
                                         ("discount", -200, [-66, -67, -67])]
    refused = tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Dinner", "amount": "31.00",
        "payments": [{"participantId": mcp.me, "amount": "31.00"}], "splitMode": "EQUAL",
        "splits": [{"participantId": mcp.me}], "extras": [{"name": "tip", "amount": "3"}],
        "currency": "JPY"}))
    assert refused["code"] == "VALIDATION_ERROR"


def test_set_household_puts_people_in_one_unit(mcp):
    bob, cy = mcp.guests
    ok(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Rent", "amount": "90.00",
        "payments": [{"participantId": mcp.me, "amount": "90.00"}], "splitMode": "EQUAL",
        "splits": [{"participantId": p} for p in (mcp.me, bob, cy)]}))
    for pid in (bob, cy):
        assert ok(mcp.call("set_household", {"groupId": mcp.group_id, "participantId": pid,
                                             "household": "Flat 2"}))["household"] == "Flat 2"
    balances = ok(mcp.call("get_balances", {"groupId": mcp.group_id}))
    assert balances["households"][0]["net"] == -6000
    [transfer] = balances["transfers"]
    assert transfer["amount"] == 6000 and transfer["fromHousehold"] == "Flat 2"
    cleared = ok(mcp.call("set_household", {"groupId": mcp.group_id, "participantId": bob,
                                            "household": None}))
    assert cleared["household"] is None
