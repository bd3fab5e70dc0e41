"""add_expense and record_settlement in any currency (issue 22 item 1), through POST /mcp:
amounts are decimal strings in the call's currency (its own exponent), groupAmount in the
group's; a row is kept in its currency, or converted at a client rate, a groupAmount or the
ECB rate of its date; refusals speak in the tool's units."""
from __future__ import annotations


from tests.mcp.mcp_client import mcp, module_aws, ok, tool_error  # noqa: F401 — fixtures


aws = module_aws  # this module's tests share one in-process DynamoDB


def add(mcp, amount: str, currency: str, **extra) -> dict:
    """add_expense: I paid ``amount`` in ``currency``, shared by the three of us."""
    return mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": "Taxi", "amount": amount, "currency": currency,
        "payments": [{"participantId": mcp.me, "amount": amount}], "splitMode": "EQUAL",
        "splits": [{"participantId": p} for p in (mcp.me, *mcp.guests)], **extra})


def test_a_yen_expense_is_kept_in_yen_with_its_own_balances(mcp):
    made = ok(add(mcp, "3000", "JPY"))  # JPY has no decimals: 3000 yen is 3000 minor units
    assert made["currency"] == "JPY" and made["amount"] == 3000
    assert made["amountFormatted"] == "3000 JPY" and "exchangeRate" not in made
    assert made["items"][0]["splits"][0]["amountFormatted"] == "1000 JPY"
    balances = ok(mcp.call("get_balances", {"groupId": mcp.group_id}))
    assert {b["net"] for b in balances["balances"]} == {0}  # nothing in the EUR nets
    [yen] = balances["otherCurrencies"]
    assert yen["currency"] == "JPY"
    assert {b["participantId"]: b["netFormatted"] for b in yen["balances"]} == {
        mcp.me: "2000 JPY", mcp.guests[0]: "-1000 JPY", mcp.guests[1]: "-1000 JPY"}
    assert sorted(t["amount"] for t in yen["transfers"]) == [1000, 1000]
    decimals = tool_error(add(mcp, "30.50", "JPY"))
    assert decimals["code"] == "VALIDATION_ERROR" and "JPY has no decimal places" in str(
        decimals["details"])


def test_a_dollar_expense_converted_at_the_client_rate(mcp):
    made = ok(add(mcp, "30.00", "USD", exchangeRate="0.9"))
    assert (made["currency"], made["amount"], made["exchangeRate"]) == ("USD", 3000, "0.9")
    assert made["rateSource"] == "CLIENT" and made["groupAmount"] == 2700
    assert made["amountFormatted"] == "30.00 USD" and made["groupAmountFormatted"] == "27.00 EUR"
    assert made["payments"][0]["groupAmountFormatted"] == "27.00 EUR"
    balances = ok(mcp.call("get_balances", {"groupId": mcp.group_id}))
    assert {b["participantId"]: b["net"] for b in balances["balances"]}[mcp.me] == 1800
    assert balances["otherCurrencies"] == []


def test_a_dollar_expense_converted_by_what_was_charged(mcp):
    made = ok(add(mcp, "30.00", "USD", groupAmount="27.77"))
    assert made["rateSource"] == "DERIVED" and made["groupAmount"] == 2777
    assert sum(s["groupAmount"] for s in made["items"][0]["splits"]) == 2777
    # groupAmount and a rate that disagree: both totals said in the group currency.
    refused = tool_error(add(mcp, "30.00", "USD", exchangeRate="0.9", groupAmount="28.00"))
    assert refused["code"] == "VALIDATION_ERROR", refused
    assert "28.00 EUR" in refused["message"] and "30.00 USD" in refused["message"]
    assert "27.00 EUR" in refused["message"] and "2800" not in str(refused)


def test_auto_takes_the_ecb_rate_of_the_date(mcp):
    made = ok(add(mcp, "100.00", "USD", exchangeRate="auto", date="2024-06-14"))
    assert made["rateSource"] == "ECB" and made["rateDate"] == "2024-06-14"
    assert made["groupAmount"] == 9358  # 100 USD / 1.0686, the ECB's USD per EUR that Friday


def test_auto_without_an_ecb_rate_is_rate_unavailable(mcp):
    refused = tool_error(add(mcp, "250000", "VND", exchangeRate="auto", date="2024-06-14"))
    assert refused["code"] == "RATE_UNAVAILABLE" and refused["details"], refused


def test_kuwaiti_dinar_amounts_have_three_decimals(mcp):
    refused = tool_error(add(mcp, "10.1234", "KWD"))
    assert refused["code"] == "VALIDATION_ERROR"
    assert refused["details"] == {"payments.0.amount": [
        "KWD has 3 decimal places; send at most 3."]}, refused
    made = ok(add(mcp, "10.123", "KWD"))
    assert made["amount"] == 10123 and made["amountFormatted"] == "10.123 KWD"


def test_record_settlement_in_another_currency(mcp):
    ok(add(mcp, "3000", "JPY"))
    paid = ok(mcp.call("record_settlement", {
        "groupId": mcp.group_id, "payerId": mcp.guests[0], "payeeId": mcp.me,
        "amount": "1000", "currency": "JPY"}))
    assert (paid["currency"], paid["amount"], paid["amountFormatted"]) == ("JPY", 1000,
                                                                           "1000 JPY")
    [yen] = ok(mcp.call("get_balances", {"groupId": mcp.group_id}))["otherCurrencies"]
    assert {b["participantId"]: b["net"] for b in yen["balances"]}.get(mcp.guests[0], 0) == 0
    converted = ok(mcp.call("record_settlement", {
        "groupId": mcp.group_id, "payerId": mcp.guests[1], "payeeId": mcp.me,
        "amount": "20.00", "currency": "USD", "exchangeRate": "0.9"}))
    assert converted["groupAmount"] == 1800 and converted["groupAmountFormatted"] == "18.00 EUR"
    nets = {b["participantId"]: b["net"]
            for b in ok(mcp.call("get_balances", {"groupId": mcp.group_id}))["balances"]}
    assert nets[mcp.guests[1]] == 1800 and nets[mcp.me] == -1800


def test_the_tools_say_how_currencies_work(mcp):
    tools = {t["name"]: t for t in mcp.rpc("tools/list").get_json()["result"]["tools"]}
    assert "otherCurrencies" in tools["get_balances"]["description"]
    for name in ("add_expense", "record_settlement"):
        properties = tools[name]["inputSchema"]["properties"]
        assert "rate units of the group" in tools[name]["description"]
        assert "RATE_UNAVAILABLE" in properties["exchangeRate"]["description"]
        assert "GROUP currency" in properties["groupAmount"]["description"]
        assert properties["groupAmount"]["type"] == ["string", "null"]
        assert "kept" in properties["currency"]["description"]
        assert "enum" not in properties["currency"]  # the rule, not 300 codes


def test_update_expense_takes_amounts_in_the_expense_currency(mcp):
    yen = ok(add(mcp, "3000", "JPY"))
    ids = {"groupId": mcp.group_id, "expenseId": yen["expenseId"], "version": 1}
    fixed = ok(mcp.call("update_expense", {
        **ids, "amount": "6000", "payments": [{"participantId": mcp.me, "amount": "6000"}]}))
    assert (fixed["currency"], fixed["amount"], fixed["version"]) == ("JPY", 6000, 2)
    stale = tool_error(mcp.call("update_expense", {**ids, "amount": "7000"}))
    assert stale["code"] == "VERSION_CONFLICT"
    dollars = ok(add(mcp, "30.00", "USD", exchangeRate="0.9"))
    more = ok(mcp.call("update_expense", {
        "groupId": mcp.group_id, "expenseId": dollars["expenseId"], "version": 1,
        "amount": "40.00", "payments": [{"participantId": mcp.me, "amount": "40.00"}]}))
    assert (more["amount"], more["exchangeRate"], more["groupAmount"]) == (4000, "0.9", 3600)
    assert more["groupAmountFormatted"] == "36.00 EUR"
