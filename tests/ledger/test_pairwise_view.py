"""GET /balances?view=pairwise and the group's simplifyDebts (issue 46, item 1)."""
from __future__ import annotations

from tests.ledger.helpers import assert_balance_matches_rows
from tests.support import aws_calls


def _transfers(reply: dict) -> set:
    return {(t["fromParticipantId"], t["toParticipantId"], t["amount"])
            for t in reply["transfers"]}


def _settled(transfers) -> dict:
    nets: dict = {}
    for t in transfers:
        nets[t["fromParticipantId"]] = nets.get(t["fromParticipantId"], 0) - t["amount"]
        nets[t["toParticipantId"]] = nets.get(t["toParticipantId"], 0) + t["amount"]
    return {pid: v for pid, v in nets.items() if v}


def _chain(group):
    """me paid 900 for me and Guest 0; Guest 0 paid 900 for Guest 0 and Guest 1: the plan
    sends Guest 1 straight to me, who never paid for them."""
    a, b = group.guests
    group.add_expense(900, payer=group.me, among=[group.me, a])
    group.add_expense(900, payer=a, among=[a, b])
    return a, b


def test_pairwise_shows_who_paid_for_whom_where_the_plan_shortcuts(group):
    a, b = _chain(group)
    simplified = group.get("/balances").get_json()
    assert simplified["view"] == "simplified"
    assert _transfers(simplified) == {(b, group.me, 450)}
    pairwise = group.get("/balances?view=pairwise").get_json()
    assert pairwise["view"] == "pairwise"
    assert _transfers(pairwise) == {(a, group.me, 450), (b, a, 450)}
    assert pairwise["balances"] == simplified["balances"]
    assert_balance_matches_rows(group.group_id)


def test_a_settlement_is_the_payees_debt_to_the_payer_and_nets_in_the_pair(group):
    a, b = _chain(group)
    assert group.post("/settlements", {"payerId": b, "payeeId": a, "amount": 200}
                      ).status_code == 201
    pairwise = group.get("/balances?view=pairwise").get_json()
    assert _transfers(pairwise) == {(a, group.me, 450), (b, a, 250)}
    assert_balance_matches_rows(group.group_id)


def test_edits_and_deletes_move_the_pairs_with_the_nets(group):
    a, b = group.guests
    first = group.add_expense(900, payer=group.me, among=[group.me, a, b])
    second = group.add_expense(301, payer=a, among=[group.me, b])
    edited = group.patch(f"/expenses/{first['expenseId']}", {
        "version": 1, "payments": [{"participantId": b, "amount": 900}]})
    assert edited.status_code == 200, edited.get_json()
    assert group.delete(f"/expenses/{second['expenseId']}").status_code == 204
    pairwise = group.get("/balances?view=pairwise").get_json()
    assert _transfers(pairwise) == {(group.me, b, 300), (a, b, 300)}
    assert_balance_matches_rows(group.group_id)


def test_an_unknown_view_is_a_400(group):
    reply = group.get("/balances?view=cheapest")
    assert reply.status_code == 400
    assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"


def test_simplify_debts_picks_the_default_view_and_only_an_owner_sets_it(group, client,
                                                                        sign_in):
    a, b = _chain(group)
    assert group.get("").get_json()["simplifyDebts"] is True
    reply = group.client.patch(group.base, json={"simplifyDebts": False}, headers=group.headers)
    assert reply.status_code == 200 and reply.get_json()["simplifyDebts"] is False
    served = group.get("/balances").get_json()
    assert served["view"] == "pairwise" and _transfers(served) == {(a, group.me, 450),
                                                                   (b, a, 450)}
    assert group.get("/balances?view=simplified").get_json()["transfers"] == [
        {"fromParticipantId": b, "toParticipantId": group.me, "amount": 450, "payTo": []}]
    assert group.client.patch(group.base, json={"simplifyDebts": "no"},
                              headers=group.headers).status_code == 400


def test_display_currency_in_the_pairwise_view_converts_each_debt_and_nets(group):
    _chain(group)
    group.add_expense(1001, payer=group.guests[1], among=group.everyone)
    reply = group.get("/balances?view=pairwise&displayCurrency=USD").get_json()
    display = reply["display"]
    shown = {r["participantId"]: r["net"] for r in display["balances"] if r["net"]}
    assert sum(shown.values()) == 0
    assert _settled(display["transfers"]) == shown
    assert len(display["transfers"]) == len(reply["transfers"])


def test_a_kept_currency_section_has_its_own_pairwise_debts(group):
    a, b = group.guests
    reply = group.post("/expenses", {
        "description": "Taxi", "date": "2026-11-28", "currency": "USD", "amount": 1000,
        "payments": [{"participantId": a, "amount": 600}, {"participantId": b, "amount": 400}],
        "splitMode": "EQUAL", "splits": [{"participantId": pid} for pid in group.everyone]})
    assert reply.status_code == 201, reply.get_json()
    pairwise = group.get("/balances?view=pairwise").get_json()
    assert pairwise["transfers"] == []
    [usd] = pairwise["otherCurrencies"]
    nets = {r["participantId"]: r["net"] for r in usd["balances"] if r["net"]}
    assert _settled(usd["transfers"]) == nets
    assert_balance_matches_rows(group.group_id)


def test_the_pairwise_view_reads_no_more_than_the_plan(group):
    for _ in range(3):
        _chain(group)
    with aws_calls.requests_made() as calls:
        assert group.get("/balances?view=pairwise").status_code == 200
    assert [op for op, _ in calls] == ["Query", "BatchGetItem"]
