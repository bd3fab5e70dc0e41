"""Settlements: payer != payee, newest first, lookup by id, versioned edits, balance effect."""
from __future__ import annotations

from models.groups import Settlement
from models.notifications import Event
from tests.ledger.helpers import assert_balance_matches_rows, stored_nets


def _pay(ctx, payer, payee, amount=500, **extra):
    return ctx.post("/settlements", {"payerId": payer, "payeeId": payee, "amount": amount,
                                     **extra})


def test_a_settlement_moves_the_payer_up_and_the_payee_down(group):
    group.add_expense(900)  # me +600, each guest -300
    reply = _pay(group, group.guests[0], group.me, 300, date="2026-11-30", note="cash")
    assert reply.status_code == 201
    body = reply.get_json()
    assert body["version"] == 1 and body["currency"] == "EUR" and body["note"] == "cash"
    assert stored_nets(group.group_id) == {group.me: 300, group.guests[1]: -300}
    assert Event.get(*Event.key(f"SETTLEMENT_ADDED#{group.group_id}#{body['settlementId']}#1"))
    assert_balance_matches_rows(group.group_id)


def test_paying_yourself_is_400(group):
    reply = _pay(group, group.me, group.me)
    assert reply.status_code == 400
    assert "payeeId" in reply.get_json()["error"]["details"]


def test_bad_amounts_are_400(group):
    for amount in (0, -5, 12.5, True, 10**11 + 1):
        assert _pay(group, group.me, group.guests[0], amount).status_code == 400, amount


def test_unknown_participant_is_409(group, other_group):
    reply = _pay(group, group.me, other_group.me)
    assert reply.status_code == 409
    assert reply.get_json()["error"]["code"] == "PARTICIPANT_UNAVAILABLE"


def test_list_is_newest_first_and_pages(group):
    ids = [_pay(group, group.me, group.guests[0], 100 + i).get_json()["settlementId"]
           for i in range(3)]
    page = group.get("/settlements?limit=2").get_json()
    assert [s["settlementId"] for s in page["items"]] == ids[::-1][:2]
    rest = group.get(f"/settlements?limit=2&cursor={page['nextCursor']}").get_json()
    assert [s["settlementId"] for s in rest["items"]] == ids[:1]


def test_lookup_by_id_pages_past_pages_the_filter_leaves_empty(group, monkeypatch):
    target = _pay(group, group.me, group.guests[0], 777).get_json()["settlementId"]
    for i in range(5):
        _pay(group, group.me, group.guests[0], 100 + i)
    real_query = Settlement.query

    def tiny_pages(*args, **kwargs):  # force one row per page, so most pages filter to empty
        return real_query(*args, page_size=1, **kwargs)

    monkeypatch.setattr(Settlement, "query", tiny_pages)
    reply = group.get(f"/settlements/{target}")
    assert reply.status_code == 200 and reply.get_json()["amount"] == 777


def test_edit_needs_the_current_version_and_moves_the_balance(group):
    created = _pay(group, group.me, group.guests[0], 500).get_json()
    path = f"/settlements/{created['settlementId']}"
    reply = group.patch(path, {"version": 1, "amount": 200, "payeeId": group.guests[1]})
    assert reply.status_code == 200
    assert reply.get_json()["version"] == 2
    assert stored_nets(group.group_id) == {group.me: 200, group.guests[1]: -200}
    stale = group.patch(path, {"version": 1, "amount": 900})
    assert stale.status_code == 409 and stale.get_json()["error"]["code"] == "VERSION_CONFLICT"
    assert group.patch(path, {"version": 2, "payerId": group.guests[1]}).status_code == 400
    assert_balance_matches_rows(group.group_id)


def test_delete_reverses_the_balance_effect(group):
    created = _pay(group, group.me, group.guests[0], 500).get_json()
    assert group.delete(f"/settlements/{created['settlementId']}").status_code == 204
    assert stored_nets(group.group_id) == {}
    assert group.get(f"/settlements/{created['settlementId']}").status_code == 404
    assert group.delete(f"/settlements/{created['settlementId']}").status_code == 404
    assert_balance_matches_rows(group.group_id)
