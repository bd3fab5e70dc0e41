"""Receipts by line (issue 47): the draft keeps each line as an item and the tax, tip, service
and discount lines as extras; confirm takes the edited draft (lines assigned to people) into
per-item splits with the extras shared in proportion."""
from __future__ import annotations

import pytest

from app.errors import Invalid
from app.ledger.expense_input import ExpenseInput, ItemInput, PaymentInput, SplitInput
from app.receipts.draft_input import Draft, Extra
from app.receipts.extras import fold, folded
from tests.receipts import images

DINNER = ("TRATTORIA ROMA", "Via Roma 1", "Date: 14/03/2026", "", "Pizza         12.00",
          "Pasta          9.00", "Wine           6.00", "SUBTOTAL      27.00", "TIP            2.70",
          "TOTAL EUR     29.70", "Grazie!")


def _scan(group, lines) -> dict:
    receipt_id = group.ready(images.receipt(lines))
    reply = group.client.post(group.path(receipt_id, "/scan"), headers=group.headers)
    assert reply.status_code == 202, reply.get_json()
    scan = group.get(receipt_id)["scan"]
    assert scan["status"] == "DONE", scan
    return receipt_id, scan


def _owed(expense: dict) -> dict:
    """What each owes: their item shares plus their shares of the extras."""
    owed: dict = {}
    for item in expense["items"]:
        for split in item["splits"]:
            owed[split["participantId"]] = owed.get(split["participantId"], 0) + split["amount"]
    for extra in expense.get("extras") or ():
        for share in extra["shares"]:
            owed[share["participantId"]] = owed.get(share["participantId"], 0) + share["amount"]
    return owed


@pytest.mark.slow
def test_a_line_assigned_draft_confirms_into_per_item_splits_with_the_tip_in_proportion(group):
    receipt_id, scan = _scan(group, DINNER)
    assert scan["total"] == 2970 and scan["currencyPrinted"] is True
    assert scan["extras"] == [{"name": "TIP", "amount": 270, "kind": "TIP"}]
    draft = scan["draft"]
    assert [(i["name"], i["amount"]) for i in draft["items"]] == [
        ("Pizza", 1200), ("Pasta", 900), ("Wine", 600)]
    everyone = {group.me, group.ann, group.bo}
    assert all(i["splitMode"] == "EQUAL" and {s["participantId"] for s in i["splits"]}
               == everyone for i in draft["items"])
    assert draft["extras"] == [{"name": "TIP", "amount": 270}]
    assert draft["payments"] == [{"participantId": group.me, "amount": 2970}]

    # Pizza was Ann's, pasta Bo's, the wine shared by me and Ann.
    who = {"Pizza": [group.ann], "Pasta": [group.bo], "Wine": [group.me, group.ann]}
    for item in draft["items"]:
        item["splits"] = [{"participantId": p, "value": 1} for p in who[item["name"]]]
    confirmed = group.client.post(group.path(receipt_id, "/confirm"),
                                  json={"expense": draft}, headers=group.headers)
    assert confirmed.status_code == 201, confirmed.get_json()
    expense = confirmed.get_json()
    # The lines stay as they were; the tip is the expense's extra, shared 10% on what each
    # had: Ann 15.00 -> 1.50, Bo 9.00 -> 0.90, me 3.00 -> 0.30.
    assert [(i["name"], i["amount"]) for i in expense["items"]] == [
        ("Pizza", 1200), ("Pasta", 900), ("Wine", 600)]
    assert expense["amount"] == 2970
    (tip,) = expense["extras"]
    assert (tip["name"], tip["amount"]) == ("TIP", 270)
    assert {s["participantId"]: s["amount"] for s in tip["shares"]} == {
        group.ann: 150, group.bo: 90, group.me: 30}
    assert _owed(expense) == {group.ann: 1650, group.bo: 990, group.me: 330}
    assert expense["receipt"]["receiptId"] == receipt_id


@pytest.mark.slow
def test_the_draft_as_it_is_confirms_with_its_extras(group):
    receipt_id, scan = _scan(group, DINNER)
    confirmed = group.client.post(group.path(receipt_id, "/confirm"), json={},
                                  headers=group.headers)
    assert confirmed.status_code == 201, confirmed.get_json()
    expense = confirmed.get_json()
    assert [i["amount"] for i in expense["items"]] == [1200, 900, 600]
    assert [e["amount"] for e in expense["extras"]] == [270]
    assert sum(_owed(expense).values()) == 2970


@pytest.mark.slow
def test_a_receipt_printing_no_currency_is_read_as_the_groups_and_the_draft_says_so(group):
    lines = ("CORNER SHOP", "Date: 14/03/2026", "Bread          2.50", "Milk           1.30",
             "TOTAL          3.80")
    _, scan = _scan(group, lines)
    assert (scan["total"], scan["currency"], scan["currencyPrinted"]) == (380, "EUR", False)
    assert "prints no currency" in scan["draft"]["notes"] and "EUR" in scan["draft"]["notes"]


def test_an_edited_body_with_a_bad_extra_is_a_400(group):
    receipt_id = group.ready(images.receipt())
    body = {"description": "Bakery", "payments": [{"participantId": group.me, "amount": 500}],
            "items": [{"name": "Cake", "amount": 500, "splitMode": "EQUAL",
                       "splits": [{"participantId": group.ann}]}],
            "extras": [{"name": "Discount", "amount": -600}]}
    reply = group.client.post(group.path(receipt_id, "/confirm"), json={"expense": body},
                              headers=group.headers)
    assert reply.status_code == 400, reply.get_json()
    assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"
    body["extras"] = [{"name": "Tip", "amount": 1.5}]
    reply = group.client.post(group.path(receipt_id, "/confirm"), json={"expense": body},
                              headers=group.headers)
    assert reply.status_code == 400


def test_payments_must_cover_the_extras_too(group):
    receipt_id = group.ready(images.receipt())
    body = {"description": "Bakery", "payments": [{"participantId": group.me, "amount": 500}],
            "items": [{"name": "Cake", "amount": 500, "splitMode": "EQUAL",
                       "splits": [{"participantId": group.ann}]}],
            "extras": [{"name": "Tip", "amount": 50}]}
    reply = group.client.post(group.path(receipt_id, "/confirm"), json={"expense": body},
                              headers=group.headers)
    assert reply.status_code == 400, reply.get_json()
    body["payments"][0]["amount"] = 550
    reply = group.client.post(group.path(receipt_id, "/confirm"), json={"expense": body},
                              headers=group.headers)
    assert reply.status_code == 201, reply.get_json()
    made = reply.get_json()
    assert (made["amount"], made["items"][0]["amount"], made["extras"][0]["amount"]) == (
        550, 500, 50)


# --- the fold itself ------------------------------------------------------------------------

def _items(*amounts, mode="EQUAL", splits=(("a", 1), ("b", 1))):
    return tuple(ItemInput(f"line {n}", a, mode, tuple(SplitInput(p, v) for p, v in splits))
                 for n, a in enumerate(amounts))


def test_the_drafts_extras_become_the_expenses_own_over_its_lines():
    expense = ExpenseInput.of(description="x", payments=(PaymentInput("a", 1099),),
                              items=_items(333, 333, 334))
    folded = fold(expense, (Extra("Tax", 100), Extra("Discount", -1)))
    assert [i.amount for i in folded.items] == [333, 333, 334]  # each line stays its own
    assert [(e.name, e.amount) for e in folded.extras] == [("Tax", 100), ("Discount", -1)]
    assert folded.amount is None and {"items", "extras"} <= folded.sent


def test_the_shorthand_becomes_one_item_of_the_lines_and_the_extras_ride_beside_it():
    expense = ExpenseInput.of(description="x", amount=1000, split_mode="EQUAL",
                              splits=(SplitInput("a"), SplitInput("b")),
                              payments=(PaymentInput("a", 1200),))
    folded = fold(expense, (Extra("Tip", 200),))
    assert (folded.amount, folded.split_mode, folded.splits) == (None, None, None)
    assert [i.amount for i in folded.items] == [1000] and "items" in folded.sent
    assert [e.amount for e in folded.extras] == [200]


def test_no_extras_is_the_expense_as_it_is_and_too_many_are_refused():
    expense = ExpenseInput.of(description="x", payments=(PaymentInput("a", 10),),
                              items=_items(5, 5))
    assert fold(expense, ()) is expense
    assert folded(Draft(expense)) is expense
    with pytest.raises(Invalid):
        fold(expense, tuple(Extra("Tip", 1) for _ in range(11)))
