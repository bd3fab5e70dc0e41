"""get_stats, search_expenses and list_people_balances through POST /mcp: the REST twins'
answers, money as minor units with formatted twins, scope groups:read, argument refusals."""
from __future__ import annotations

from tests.support.projection import settle
from tests.ledger.helpers import join_directly
from tests.mcp.mcp_client import grant_token, mcp, module_aws, ok, tool_error  # noqa: F401 — fixtures

aws = module_aws


def _add(mcp, amount, among, *, description="Dinner", date="2026-03-01", payer=None):
    return ok(mcp.call("add_expense", {
        "groupId": mcp.group_id, "description": description, "amount": amount, "date": date,
        "payments": [{"participantId": payer or mcp.me, "amount": amount}],
        "splitMode": "EQUAL", "splits": [{"participantId": p} for p in among]}))


def test_list_people_balances_and_search_with_a_person(mcp, client, sign_in):
    bo_h, bo = sign_in(f"bo-{mcp.grant_id[:8]}@example.com", display_name="Bo")
    bo_pid = join_directly(mcp.group_id, bo, "MEMBER", "Bo")
    _add(mcp, "12.30", [mcp.me, bo_pid], description="Taxi")
    _add(mcp, "4.00", [mcp.me, mcp.guests[0]], description="Coffee", date="2026-03-02")
    people = ok(mcp.call("list_people_balances"))["items"]
    assert [(p["displayName"], p["nets"][0]["net"], p["nets"][0]["netFormatted"])
            for p in people] == [("Bo", 615, "6.15 EUR")]
    assert people[0]["groups"][0]["netFormatted"] == "6.15 EUR"

    settle()  # the cross-group search reads the projection the groups stream keeps
    found = ok(mcp.call("search_expenses", {"withUserId": bo}))
    assert [(e["description"], e["groupName"], e["amountFormatted"]) for e in found["items"]] \
        == [("Taxi", "Trip", "12.30 EUR")]
    everything = ok(mcp.call("search_expenses", {"limit": 1}))
    assert [e["description"] for e in everything["items"]] == ["Coffee"]
    rest = ok(mcp.call("search_expenses", {"limit": 1, "cursor": everything["nextCursor"]}))
    assert [e["description"] for e in rest["items"]] == ["Taxi"]
    # the REST twin answers the same
    reply = client.get("/users/me/expenses", headers=bo_h, query_string={"q": "taxi"})
    assert [e["expenseId"] for e in reply.get_json()["items"]] == [
        found["items"][0]["expenseId"]]


def test_get_stats_for_a_group_and_across_groups(mcp):
    _add(mcp, "9.00", [mcp.me, *mcp.guests])
    group = ok(mcp.call("get_stats", {"groupId": mcp.group_id, "by": "participant"}))["group"]
    assert group["total"]["spentFormatted"] == "9.00 EUR"
    assert {r["key"]: r["spentFormatted"] for r in group["rows"]} == {
        pid: "3.00 EUR" for pid in (mcp.me, *mcp.guests)}
    settle()
    mine = ok(mcp.call("get_stats", {"by": "group"}))["mine"]
    (section,) = mine["sections"]
    assert (section["currency"], section["total"]["spent"], section["total"]["paidFormatted"]) \
        == ("EUR", 300, "9.00 EUR")
    assert tool_error(mcp.call("get_stats", {"by": "participant"}))["details"] == {
        "by": ["by=participant needs a groupId (participants are per group)."]}
    assert tool_error(mcp.call("get_stats", {"groupId": mcp.group_id, "by": "group"}))[
        "code"] == "VALIDATION_ERROR"


def test_the_tools_need_groups_read(mcp):
    token, _ = grant_token(mcp.user_id, scopes=["expenses:write"])
    for name in ("get_stats", "search_expenses", "list_people_balances"):
        reply = mcp.rpc("tools/call", {"name": name, "arguments": {}}, token=token)
        assert reply.status_code == 403, (name, reply.get_data(as_text=True))


def test_settle_up_with_bo_everywhere_and_explain_a_balance(mcp, client, sign_in):
    """"Settle up with Bo everywhere": list_people_balances names Bo and what the user owes,
    settle_with_person records it in every shared group at once; get_balances takes a view
    and explain_balance tells why a balance is what it is."""
    _, bo = sign_in(f"bo-{mcp.grant_id[:8]}@example.com", display_name="Bo")
    bo_pid = join_directly(mcp.group_id, bo, "MEMBER", "Bo")
    _add(mcp, "12.00", [mcp.me, bo_pid], payer=bo_pid, description="Hotel")
    _add(mcp, "3.00", [mcp.guests[0], bo_pid], payer=mcp.me, description="Snacks")
    pairwise = ok(mcp.call("get_balances", {"groupId": mcp.group_id, "view": "pairwise"}))
    assert pairwise["view"] == "pairwise"
    assert {(t["fromParticipantId"], t["toParticipantId"], t["amount"])
            for t in pairwise["transfers"]} == {(mcp.me, bo_pid, 450),
                                                (mcp.guests[0], mcp.me, 150)}
    assert tool_error(mcp.call("get_balances", {"groupId": mcp.group_id, "view": "x"}))[
        "code"] == "VALIDATION_ERROR"
    why = ok(mcp.call("explain_balance", {"groupId": mcp.group_id, "participantId": mcp.me}))
    assert [(line["description"], line["effect"], line["runningNet"]) for line in why["items"]
            ] == [("Hotel", -600, -600), ("Snacks", 300, -300)]
    assert why["net"] == -300
    (person,) = ok(mcp.call("list_people_balances"))["items"]
    assert person["nets"][0]["net"] == -300  # the plan: I pay Bo 3.00 (the guest pays me)
    paid = ok(mcp.call("settle_with_person", {"userId": bo, "currency": "EUR",
                                              "direction": "PAY", "idempotencyKey": "bo-1"}))
    assert paid["total"] == 300 and paid["totalFormatted"] == "3.00 EUR"
    assert [s["groupId"] for s in paid["settlements"]] == [mcp.group_id]
    replay = ok(mcp.call("settle_with_person", {"userId": bo, "currency": "EUR",
                                                "direction": "PAY", "idempotencyKey": "bo-1"}))
    assert replay == paid
    assert ok(mcp.call("list_people_balances"))["items"][0]["nets"][0]["net"] == 0
    assert tool_error(mcp.call("settle_with_person", {"userId": bo, "currency": "EUR",
                                                      "direction": "PAY"}))["code"] == \
        "NOTHING_OWED"
