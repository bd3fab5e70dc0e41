"""The tools users ask an assistant for (issue 25 item 5), through POST /mcp and the Flask
test client: each acts with the user's own roles exactly as its REST twin, and speaks money
in the tool's own units (decimal strings in the group currency)."""
from __future__ import annotations

import pytest

from tests.mcp.mcp_client import grant_token, mcp, module_aws, ok, tool_error  # noqa: F401 — fixtures

NOBODY = "00000000-0000-4000-8000-000000000000"


aws = module_aws  # this module's tests share one in-process DynamoDB


def expense(mcp, amount="30.00", *, description="Dinner", among=None, paid_by=None, **extra):
    return ok(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": description, "amount": amount,
        "payments": [{"participantId": paid_by or mcp.me, "amount": amount}],
        "splitMode": "EQUAL",
        "splits": [{"participantId": p} for p in (among or [mcp.me, *mcp.guests])], **extra}))


def nets(mcp) -> dict:
    balances = ok(mcp.call("get_balances", {"groupId": mcp.group_id}))
    return {b["participantId"]: b["net"] for b in balances["balances"]}


def member_token(mcp, client, sign_in, role: str) -> str:
    """A second user, joined to the group with ``role``, and their MCP token."""
    headers, user_id = sign_in(f"{role.lower()}-{mcp.grant_id[:8]}@example.com")
    owner = sign_in(mcp.email)[0]
    base = f"/groups/{mcp.group_id}"
    code = client.patch(base + "/invite", json={"enabled": True}, headers=owner).get_json()["code"]
    asked = client.post(base + "/join-requests", json={"code": code, "mode": "NEW"},
                        headers=headers).get_json()
    approved = client.post(f"{base}/join-requests/{asked['requestId']}/approve",
                           json={"role": role}, headers=owner)
    assert approved.status_code == 200, approved.get_json()
    return grant_token(user_id)[0]


def test_get_expense_answers_it_with_its_comments(mcp):
    made = expense(mcp)
    ok(mcp.call("add_comment", {"groupId": mcp.group_id, "expenseId": made["expenseId"],
                                "body": "Thanks!"}))
    got = ok(mcp.call("get_expense", {"groupId": mcp.group_id, "expenseId": made["expenseId"]}))
    assert got["expenseId"] == made["expenseId"] and got["version"] == 1
    assert [c["body"] for c in got["comments"]] == ["Thanks!"]
    assert got["amountFormatted"] == "30.00 EUR"
    missing = mcp.call("get_expense", {"groupId": mcp.group_id, "expenseId": NOBODY})
    assert tool_error(missing)["code"] == "NOT_FOUND"


def test_update_expense_needs_the_version_and_corrects_the_amount(mcp):
    made = expense(mcp, "45.00")
    ids = {"groupId": mcp.group_id, "expenseId": made["expenseId"]}
    unversioned = tool_error(mcp.call("update_expense", {**ids, "amount": "40.00"}))
    assert unversioned["code"] == "VALIDATION_ERROR" and "version" in unversioned["details"]
    fixed = ok(mcp.call("update_expense", {
        **ids, "version": 1, "amount": "40.00",
        "payments": [{"participantId": mcp.me, "amount": "40.00"}]}))
    assert fixed["amount"] == 4000 and fixed["version"] == 2
    stale = tool_error(mcp.call("update_expense", {**ids, "version": 1,
                                                    "description": "Lunch"}))
    assert stale["code"] == "VERSION_CONFLICT"
    # A refusal that quotes amounts quotes them as the tool takes them.
    unbalanced = tool_error(mcp.call("update_expense", {
        **ids, "version": 2, "amount": "40.00",
        "payments": [{"participantId": mcp.me, "amount": "39.50"}]}))
    assert "39.50 EUR" in unbalanced["message"] and "40.00 EUR" in unbalanced["message"]
    assert "3950" not in str(unbalanced)


def test_delete_expense_undoes_its_balance_effect(mcp):
    before = nets(mcp)
    made = expense(mcp)
    assert nets(mcp) != before
    deleted = ok(mcp.call("delete_expense", {"groupId": mcp.group_id,
                                             "expenseId": made["expenseId"]}))
    assert deleted == {"deleted": True, "expenseId": made["expenseId"]}
    assert nets(mcp) == before
    again = mcp.call("delete_expense", {"groupId": mcp.group_id, "expenseId": made["expenseId"]})
    assert tool_error(again)["code"] == "NOT_FOUND"


def test_settle_up_records_every_transfer_once(mcp):
    expense(mcp, "30.00")  # each guest owes me 10.00
    plan = ok(mcp.call("get_balances", {"groupId": mcp.group_id}))
    assert len(plan["transfers"]) == 2
    stale = mcp.call("settle_up", {"groupId": mcp.group_id, "revision": plan["revision"] + 7})
    assert tool_error(stale)["code"] == "VERSION_CONFLICT"
    arguments = {"groupId": mcp.group_id, "revision": plan["revision"], "idempotencyKey": "s-1"}
    done = ok(mcp.call("settle_up", arguments))
    assert sorted((s["payerId"], s["payeeId"], s["amount"]) for s in done["recorded"]) == sorted(
        (t["fromParticipantId"], t["toParticipantId"], t["amount"]) for t in plan["transfers"])
    assert set(nets(mcp).values()) == {0}
    assert ok(mcp.call("settle_up", arguments)) == done  # replayed: nothing new written
    listed = ok(mcp.call("list_settlements", {"groupId": mcp.group_id}))
    assert len(listed["items"]) == 2
    assert ok(mcp.call("settle_up", {"groupId": mcp.group_id}))["recorded"] == []


def test_list_and_delete_settlements(mcp):
    expense(mcp, "30.00")
    paid = ok(mcp.call("record_settlement", {"groupId": mcp.group_id, "payerId": mcp.guests[0],
                                             "payeeId": mcp.me, "amount": "10.00"}))
    listed = ok(mcp.call("list_settlements", {"groupId": mcp.group_id}))
    assert [s["settlementId"] for s in listed["items"]] == [paid["settlementId"]]
    assert listed["items"][0]["amountFormatted"] == "10.00 EUR"
    ok(mcp.call("delete_settlement", {"groupId": mcp.group_id,
                                      "settlementId": paid["settlementId"]}))
    assert ok(mcp.call("list_settlements", {"groupId": mcp.group_id}))["items"] == []
    assert nets(mcp)[mcp.guests[0]] == -1000


def test_create_group_and_add_guest(mcp):
    group = ok(mcp.call("create_group", {"name": "Lisbon trip", "currency": "JPY",
                                         "idempotencyKey": "g-1"}))
    assert group["currency"] == "JPY" and group["myRole"] == "OWNER"
    assert ok(mcp.call("create_group", {"name": "Lisbon trip", "currency": "JPY",
                                        "idempotencyKey": "g-1"})) == group
    guest = ok(mcp.call("add_guest", {"groupId": group["groupId"], "displayName": "Bo"}))
    roster = ok(mcp.call("get_group", {"groupId": group["groupId"]}))["participants"]
    assert guest["participantId"] in {p["participantId"] for p in roster}
    bad = tool_error(mcp.call("create_group", {"name": "X", "currency": "EURO"}))
    assert bad["code"] == "VALIDATION_ERROR" and "currency" in bad["details"]


def test_create_group_holds_a_name_to_the_rest_rule(mcp):
    """POST /groups refuses a bidi override and a zero-width space in a name: so does the
    tool (issue 30 item 4), and a decomposed name is stored NFC as REST stores it."""
    bad = tool_error(mcp.call("create_group", {"name": "Trip\u202egnp.exe\u200b",
                                               "currency": "EUR"}))
    assert bad["code"] == "VALIDATION_ERROR" and "name" in bad["details"]
    made = ok(mcp.call("create_group", {"name": "Cafe\u0301", "currency": "EUR"}))
    assert made["name"] == "Caf\u00e9"


def test_list_groups_filters_by_name(mcp):
    ok(mcp.call("create_group", {"name": "Ski week", "currency": "EUR"}))
    found = ok(mcp.call("list_groups", {"name": "ski"}))
    assert [g["name"] for g in found["items"]] == ["Ski week"]
    assert ok(mcp.call("list_groups", {"name": "nothing like it"}))["items"] == []
    assert len(ok(mcp.call("list_groups", {}))["items"]) == 2


def test_list_expenses_filters_by_text_category_and_participant(mcp):
    taxi = expense(mcp, "12.00", description="Taxi to the airport", category="TRANSPORT",
                   among=[mcp.me, mcp.guests[0]])
    dinner = expense(mcp, "30.00", description="Dinner", category="FOOD")
    expense(mcp, "8.00", description="Coffee", among=[mcp.me])

    def found(**filters) -> list:
        return [e["expenseId"] for e in ok(mcp.call("list_expenses", {
            "groupId": mcp.group_id, **filters}))["items"]]

    assert found(text="AIRPORT") == [taxi["expenseId"]]
    assert found(category="food") == [dinner["expenseId"]]
    assert found(participantId=mcp.guests[1]) == [dinner["expenseId"]]
    assert set(found(participantId=mcp.guests[0])) == {taxi["expenseId"], dinner["expenseId"]}
    # One match a page: the filtered list pages on, its cursor bound to its filters.
    first = ok(mcp.call("list_expenses", {"groupId": mcp.group_id,
                                          "participantId": mcp.guests[0], "limit": 1}))
    assert len(first["items"]) == 1 and first["nextCursor"]
    rest = ok(mcp.call("list_expenses", {"groupId": mcp.group_id, "limit": 1,
                                         "participantId": mcp.guests[0],
                                         "cursor": first["nextCursor"]}))
    assert {first["items"][0]["expenseId"], rest["items"][0]["expenseId"]} == {
        taxi["expenseId"], dinner["expenseId"]}
    elsewhere = mcp.call("list_expenses", {"groupId": mcp.group_id, "text": "x",
                                           "cursor": first["nextCursor"]})
    assert tool_error(elsewhere)["code"] == "VALIDATION_ERROR"


@pytest.mark.parametrize("role", ["VIEWER"])
def test_the_new_tools_act_with_the_users_own_roles(mcp, client, sign_in, role):
    made = expense(mcp)
    paid = ok(mcp.call("record_settlement", {"groupId": mcp.group_id, "payerId": mcp.guests[0],
                                             "payeeId": mcp.me, "amount": "1.00"}))
    viewer = member_token(mcp, client, sign_in, role)
    group, expense_ids = {"groupId": mcp.group_id}, {"groupId": mcp.group_id,
                                                     "expenseId": made["expenseId"]}
    for name, arguments in (("get_expense", expense_ids), ("list_settlements", group)):
        assert mcp.call(name, arguments, token=viewer)["isError"] is False, name
    for name, arguments in (
            ("update_expense", {**expense_ids, "version": 1, "description": "x"}),
            ("delete_expense", expense_ids), ("settle_up", group),
            ("delete_settlement", {**group, "settlementId": paid["settlementId"]}),
            ("add_guest", {**group, "displayName": "Zed"})):
        assert tool_error(mcp.call(name, arguments, token=viewer))["code"] == "FORBIDDEN", name
    stranger = grant_token(sign_in(f"stranger-{mcp.grant_id[:8]}@example.com")[1])[0]
    for name, arguments in (("get_expense", expense_ids), ("list_settlements", group),
                            ("settle_up", group), ("delete_expense", expense_ids)):
        assert tool_error(mcp.call(name, arguments, token=stranger))["code"] == "NOT_FOUND", name


def test_each_call_of_a_batch_authorizes_and_reads_afresh(mcp):
    """One POST, three calls (batches: MCP 2025-03-26): the second get_balances sees the
    expense the batch added, not the balance row the first one read."""
    def call(ident, name, arguments):
        return {"jsonrpc": "2.0", "id": ident, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}}

    replies = mcp.post([
        call(1, "get_balances", {"groupId": mcp.group_id}),
        call(2, "add_expense", {"groupId": mcp.group_id, "description": "Taxi", "amount": "9.00",
                                "payments": [{"participantId": mcp.me, "amount": "9.00"}],
                                "splitMode": "EQUAL", "splits": [{"participantId": mcp.guests[0]}]}),
        call(3, "get_balances", {"groupId": mcp.group_id})]).get_json()
    results = {r["id"]: r["result"] for r in replies}
    before, after = (ok(results[i])["balances"] for i in (1, 3))
    mine = {b["participantId"]: b["net"] for b in after}
    assert mine[mcp.me] - {b["participantId"]: b["net"] for b in before}[mcp.me] == 900
