"""Income (issue 45): kind INCOME moves every net the other way, through every path a row
takes (create, edit, delete, conversion, transfer, export), and ADJUSTMENT splits over
HTTP."""
from __future__ import annotations

import csv
import io

import pytest


def _income(group, amount=900, *, receiver=None, among=None, **extra) -> dict:
    return {"description": "Deposit back", "date": "2026-11-28", "kind": "INCOME",
            "amount": amount,
            "payments": [{"participantId": receiver or group.me, "amount": amount}],
            "splitMode": "EQUAL",
            "splits": [{"participantId": p} for p in among or group.everyone], **extra}


def _nets(group, currency=None) -> dict:
    served = group.get("/balances").get_json()
    if currency is None:
        return {row["participantId"]: row["net"] for row in served["balances"]}
    section = next(s for s in served["otherCurrencies"] if s["currency"] == currency)
    return {row["participantId"]: row["net"] for row in section["balances"]}


def test_an_income_moves_the_receivers_net_down_and_each_shares_up(group):
    reply = group.post("/expenses", _income(group))
    assert reply.status_code == 201, reply.get_json()
    made = reply.get_json()
    assert made["kind"] == "INCOME"
    assert [s["amount"] for s in made["items"][0]["splits"]] == [300, 300, 300]
    # The owner received 9.00 of which each owns 3.00: the owner now owes each guest 3.00.
    assert _nets(group) == {group.me: -600, group.guests[0]: 300, group.guests[1]: 300}


def test_replies_and_lists_show_expense_when_no_kind_was_sent(group):
    made = group.add_expense(900)
    assert made["kind"] == "EXPENSE"
    assert group.get(f"/expenses/{made['expenseId']}").get_json()["kind"] == "EXPENSE"
    assert [e["kind"] for e in group.get("/expenses").get_json()["items"]] == ["EXPENSE"]


def test_an_unknown_kind_is_a_400(group):
    reply = group.post("/expenses", _income(group, kind="REFUND"))
    assert reply.status_code == 400
    assert "kind" in reply.get_json()["error"]["details"]


def test_an_income_and_the_same_expense_cancel(group):
    body = _income(group, 1001, receiver=group.guests[0])
    assert group.post("/expenses", body).status_code == 201
    assert group.post("/expenses", {**body, "kind": "EXPENSE"}).status_code == 201
    assert set(_nets(group).values()) == {0}


def test_an_edit_turns_an_expense_into_an_income_and_back(group):
    made = group.add_expense(900)
    spent = _nets(group)
    reply = group.patch(f"/expenses/{made['expenseId']}", {"kind": "INCOME", "version": 1})
    assert reply.status_code == 200 and reply.get_json()["kind"] == "INCOME"
    assert _nets(group) == {pid: -net for pid, net in spent.items()}
    # A partial edit that does not send kind keeps it.
    reply = group.patch(f"/expenses/{made['expenseId']}", {"description": "Refund",
                                                           "version": 2})
    assert reply.get_json()["kind"] == "INCOME"
    reply = group.patch(f"/expenses/{made['expenseId']}", {"kind": "EXPENSE", "version": 3})
    assert reply.get_json()["kind"] == "EXPENSE" and _nets(group) == spent


def test_deleting_an_income_takes_its_nets_back(group):
    made = group.post("/expenses", _income(group)).get_json()
    assert group.delete(f"/expenses/{made['expenseId']}").status_code == 204
    assert set(_nets(group).values()) == {0}


def test_a_kept_and_a_converted_income_count_in_their_sections(group):
    kept = group.post("/expenses", _income(group, 3000, currency="JPY"))
    assert kept.status_code == 201, kept.get_json()
    assert _nets(group, "JPY") == {group.me: -2000, group.guests[0]: 1000,
                                   group.guests[1]: 1000}
    converted = group.post("/expenses", _income(group, 3000, currency="JPY",
                                                exchangeRate="0.0061"))
    assert converted.status_code == 201
    body = converted.get_json()
    assert body["kind"] == "INCOME" and body["groupAmount"] == 1830
    assert _nets(group) == {group.me: -1220, group.guests[0]: 610, group.guests[1]: 610}
    # A conversion of the kept income moves its nets into the main section, signs kept.
    reply = group.post("/conversions", {"currency": "JPY", "exchangeRate": "0.0061"})
    assert reply.status_code == 201, reply.get_json()
    assert _nets(group) == {group.me: -2440, group.guests[0]: 1220, group.guests[1]: 1220}


def test_a_transfer_carries_an_income_over_with_its_kind(group):
    made = group.post("/expenses", _income(group, receiver=group.guests[0])).get_json()
    reply = group.post(f"/participants/{group.guests[0]}/transfer",
                       {"targetParticipantId": group.guests[1]})
    assert reply.status_code == 200, reply.get_json()
    moved = group.get(f"/expenses/{made['expenseId']}").get_json()
    assert moved["kind"] == "INCOME"
    assert moved["payments"][0]["participantId"] == group.guests[1]
    assert _nets(group) == {group.me: 300, group.guests[1]: -300}


def test_the_csv_shows_an_income_with_a_negative_cost_its_net_effects_and_its_kind(group):
    group.post("/expenses", _income(group))
    rows = list(csv.reader(io.StringIO(group.get("/export?format=csv").get_data(as_text=True))))
    header, income = rows[0], rows[1]
    cell = dict(zip(header, income, strict=False))
    assert cell["Cost"] == "-9.00" and cell["Kind"] == "INCOME"
    assert (cell["owner"], cell["Guest 0"], cell["Guest 1"]) == ("-6.00", "3.00", "3.00")
    # paid - owed is still the net: the receiver "paid" -9.00 and "owed" -3.00.
    assert (cell["owner paid"], cell["owner owed"]) == ("-9.00", "-3.00")
    assert group.get("/export?format=json").get_json()["expenses"][0]["kind"] == "INCOME"


def test_an_adjustment_split_over_http(group):
    body = {"description": "Cabin", "date": "2026-11-28", "amount": 1000,
            "payments": [{"participantId": group.me, "amount": 1000}],
            "splitMode": "ADJUSTMENT",
            "splits": [{"participantId": group.me, "value": 100},
                       {"participantId": group.guests[0], "value": -50},
                       {"participantId": group.guests[1], "value": 0}]}
    reply = group.post("/expenses", body)
    assert reply.status_code == 201, reply.get_json()
    # 1000 - 50 = 950 left: 317, 317, 316, then each adjustment.
    assert [s["amount"] for s in reply.get_json()["items"][0]["splits"]] == [417, 267, 316]


@pytest.mark.parametrize("splits, field", [
    ([{"value": 2000}, {"value": 0}], "splits[1].value"),  # the rest -1000: 500 and -500
    ([{}, {"value": 0}], "splits[0].value"),  # ADJUSTMENT values are required
])
def test_an_adjustment_refusal_is_a_400_naming_the_split(group, splits, field):
    body = {"description": "Cabin", "date": "2026-11-28", "amount": 1000,
            "payments": [{"participantId": group.me, "amount": 1000}],
            "splitMode": "ADJUSTMENT",
            "splits": [{"participantId": pid, **s}
                       for pid, s in zip(group.everyone, splits, strict=False)]}
    reply = group.post("/expenses", body)
    assert reply.status_code == 400
    assert field in reply.get_json()["error"]["details"], reply.get_json()


def test_a_negative_value_is_refused_outside_adjustment(group):
    body = {"description": "Cabin", "date": "2026-11-28", "amount": 1000,
            "payments": [{"participantId": group.me, "amount": 1000}],
            "splitMode": "EXACT", "splits": [{"participantId": group.me, "value": 1100},
                                             {"participantId": group.guests[0],
                                              "value": -100}]}
    assert group.post("/expenses", body).status_code == 400
