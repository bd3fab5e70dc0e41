"""POST /users/me/people/{userId}/settle: one payment, a settlement per shared group."""
from __future__ import annotations

from tests.ledger.conftest import make_group_ctx
from tests.ledger.helpers import join_directly


def _bo_in_two_groups(client, sign_in, group):
    bo_h, bo = sign_in("bo@example.com", display_name="Bo")
    other = make_group_ctx(client, sign_in, "owner@example.com", guests=1)
    pids = [join_directly(g.group_id, bo, "MEMBER", "Bo") for g in (group, other)]
    return bo_h, bo, other, pids


def _transfers_between(group, a: str, b: str, currency: str | None = None) -> list:
    reply = group.get("/balances").get_json()
    sections = [reply] + reply["otherCurrencies"]
    return [t for s in sections if currency in (None, s["currency"]) for t in s["transfers"]
            if {t["fromParticipantId"], t["toParticipantId"]} == {a, b}]


def test_paying_bo_everywhere_writes_one_settlement_per_group_and_clears_us(group, client,
                                                                           sign_in):
    bo_h, bo, other, (bo1, bo2) = _bo_in_two_groups(client, sign_in, group)
    group.add_expense(1000, payer=bo1, among=[group.me, bo1])  # I owe Bo 500
    other.add_expense(900, payer=bo2, among=[other.me, bo2, other.guests[0]])  # I owe 300
    assert client.put("/users/me/payment-methods", headers=bo_h, json={
        "methods": [{"type": "PAYPAL", "handle": "bopays"}]}).status_code == 200
    reply = client.post(f"/users/me/people/{bo}/settle", headers=group.headers,
                        json={"currency": "EUR", "direction": "PAY", "note": "all of it"})
    assert reply.status_code == 201, reply.get_json()
    body = reply.get_json()
    assert body["total"] == 800
    assert sorted((s["groupId"], s["amount"]) for s in body["settlements"]) == sorted(
        [(group.group_id, 500), (other.group_id, 300)])
    assert body["payTo"] == [{"type": "PAYPAL", "url": "https://paypal.me/bopays/8.00EUR"}]
    assert _transfers_between(group, group.me, bo1) == []
    assert _transfers_between(other, other.me, bo2) == []
    again = client.post(f"/users/me/people/{bo}/settle", headers=group.headers,
                        json={"currency": "EUR", "direction": "PAY"})
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "NOTHING_OWED"


def test_receive_settles_what_they_owe_me_in_a_kept_currency(group, client, sign_in):
    bo_h, bo, other, (bo1, _) = _bo_in_two_groups(client, sign_in, group)
    reply = group.post("/expenses", {"description": "Taxi", "amount": 600, "currency": "USD",
                                     "splitMode": "EQUAL",
                                     "payments": [{"participantId": group.me, "amount": 600}],
                                     "splits": [{"participantId": group.me},
                                                {"participantId": bo1}]})
    assert reply.status_code == 201
    assert client.post(f"/users/me/people/{bo}/settle", headers=group.headers, json={
        "currency": "EUR", "direction": "RECEIVE"}).status_code == 409
    reply = client.post(f"/users/me/people/{bo}/settle", headers=group.headers, json={
        "currency": "USD", "direction": "RECEIVE"})
    assert reply.status_code == 201, reply.get_json()
    assert reply.get_json()["settlements"][0]["amount"] == 300
    settlement = group.get(f"/settlements/{reply.get_json()['settlements'][0]['settlementId']}"
                           ).get_json()
    assert settlement["currency"] == "USD" and "exchangeRate" not in settlement
    assert group.get("/balances").get_json()["otherCurrencies"] == []


def test_bad_requests_are_400s(group, client, sign_in):
    _, bo = sign_in("bo@example.com", display_name="Bo")
    for body in ({"currency": "EUR"}, {"currency": "EUR", "direction": "SIDEWAYS"},
                 {"currency": "XXX", "direction": "PAY"}):
        reply = client.post(f"/users/me/people/{bo}/settle", headers=group.headers, json=body)
        assert reply.status_code == 400, body
    assert client.post(f"/users/me/people/{group.user_id}/settle", headers=group.headers,
                       json={"currency": "EUR", "direction": "PAY"}).status_code == 400


def test_a_payment_read_before_an_expense_writes_nothing_in_any_group(group, client, sign_in):
    """The deterministic half of the race: the transfers were read, then an expense moved
    one group's balances; the transaction writes no settlement anywhere."""
    import pytest
    from app.insight import settle_with_person as settle
    _, bo, other, (bo1, bo2) = _bo_in_two_groups(client, sign_in, group)
    group.add_expense(1000, payer=bo1, among=[group.me, bo1])
    other.add_expense(1000, payer=bo2, among=[other.me, bo2])
    legs = settle.legs_between(group.user_id, bo, "EUR", settle.PAY)
    assert len(legs) == 2
    other.add_expense(200, payer=bo2, among=[other.me, bo2])
    with pytest.raises(settle._PlanMoved):
        settle._write(group.user_id, legs, settle.PAY, "2026-11-30", None)
    for g in (group, other):
        assert g.get("/settlements").get_json()["items"] == []
