"""add_expense and update_expense hand the ledger an ExpenseInput (issue 32 item 1): notes
ride along, and a money refusal is said in the tool's units from the refusal's own
structure (app.money.refusals), not by rewriting its English text."""
from __future__ import annotations

from tests.mcp.mcp_client import mcp, module_aws, ok, tool_error  # noqa: F401 — fixtures
from tests.mcp.test_mcp_currencies import add

aws = module_aws  # this module's tests share one in-process DynamoDB


def test_notes_are_stored_returned_and_edited(mcp):
    made = ok(add(mcp, "12.30", "EUR", notes="Airport to the hotel, night fare"))
    assert made["notes"] == "Airport to the hotel, night fare"
    fixed = ok(mcp.call("update_expense", {"groupId": mcp.group_id,
                                           "expenseId": made["expenseId"], "version": 1,
                                           "notes": None}))
    assert fixed["notes"] is None and fixed["amount"] == 1230 and fixed["version"] == 2
    too_long = tool_error(add(mcp, "1.00", "EUR", notes="x" * 501))
    assert too_long["code"] == "VALIDATION_ERROR" and "notes" in too_long["details"]


def test_a_payments_mismatch_is_said_in_decimals_of_the_expense_currency(mcp):
    refused = tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Taxi", "amount": "12.30",
        "payments": [{"participantId": mcp.me, "amount": "12.00"}], "splitMode": "EQUAL",
        "splits": [{"participantId": mcp.me}]}))
    assert refused["message"] == "payments sum to 12.00 EUR but the expense amount is 12.30 EUR"
    assert refused["details"] == {"payments": [refused["message"]]}


def test_only_the_quoted_amounts_change_units_never_other_numbers(mcp):
    # A whole-number rate ("2") is no amount: the old text rewrite turned it into "0.02 USD".
    refused = tool_error(add(mcp, "30.00", "USD", exchangeRate="2", groupAmount="61.00"))
    assert refused["message"] == ("groupAmount 61.00 EUR disagrees with exchangeRate 2: "
                                  "30.00 USD converts to 60.00 EUR.")
    assert refused["details"] == {"groupAmount": ["At this rate it is 60.00 EUR."]}


def test_a_yen_refusal_has_no_decimals(mcp):
    refused = tool_error(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Ramen", "currency": "JPY",
        "items": [{"amount": "3000", "splitMode": "EXACT",
                   "splits": [{"participantId": mcp.me, "value": "2000"}]}],
        "payments": [{"participantId": mcp.me, "amount": "3000"}]}))
    assert refused["message"] == "EXACT splits sum to 2000 JPY but the item amount is 3000 JPY"
    assert list(refused["details"]) == ["items[0].splits"]
