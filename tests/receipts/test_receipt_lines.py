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
    owed: dict = {}
    for item in expense["items"]:
        for split in item["splits"]:
            owed[split["participantId"]] = owed.get(split["participantId"], 0) + split["amount"]
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
    # 10% tip on every line: 12.00 + 1.20, 9.00 + 0.90, 6.00 + 0.60.
    assert [(i["name"], i["amount"]) for i in expense["items"]] == [
        ("Pizza", 1320), ("Pasta", 990), ("Wine", 660)]
    assert expense["amount"] == 2970
    assert _owed(expense) == {group.ann: 1320 + 330, group.bo: 990, group.me: 330}
    assert expense["receipt"]["receiptId"] == receipt_id


@pytest.mark.slow
def test_the_draft_as_it_is_confirms_with_its_extras(group):
    receipt_id, scan = _scan(group, DINNER)
    confirmed = group.client.post(group.path(receipt_id, "/confirm"), json={},
                                  headers=group.headers)
    assert confirmed.status_code == 201, confirmed.get_json()
    expense = confirmed.get_json()
    assert [i["amount"] for i in expense["items"]] == [1320, 990, 660]
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
    assert reply.get_json()["items"][0]["amount"] == 550


# --- the fold itself ------------------------------------------------------------------------

def _items(*amounts, mode="EQUAL", splits=(("a", 1), ("b", 1))):
    return tuple(ItemInput(f"line {n}", a, mode, tuple(SplitInput(p, v) for p, v in splits))
                 for n, a in enumerate(amounts))


def test_extras_are_shared_over_the_items_exactly_in_proportion():
    expense = ExpenseInput.of(description="x", payments=(PaymentInput("a", 1000),),
                              items=_items(333, 333, 334))
    folded = fold(expense, (Extra("Tax", 100), Extra("Discount", -1)))
    assert [i.amount for i in folded.items] == [366, 366, 367]
    assert sum(i.amount for i in folded.items) == 1000 + 99


def test_exact_splits_follow_their_item_to_its_new_amount():
    expense = ExpenseInput.of(description="x", payments=(PaymentInput("a", 1100),),
                              items=_items(1000, mode="EXACT", splits=(("a", 700), ("b", 300))))
    (item,) = fold(expense, (Extra("Service", 100),)).items
    assert item.amount == 1100 and [s.value for s in item.splits] == [770, 330]


def test_the_shorthand_becomes_one_item_and_its_amount_the_new_total():
    expense = ExpenseInput.of(description="x", amount=1000, split_mode="EQUAL",
                              splits=(SplitInput("a"), SplitInput("b")),
                              payments=(PaymentInput("a", 1200),))
    folded = fold(expense, (Extra("Tip", 200),))
    assert (folded.amount, folded.split_mode, folded.splits) == (1200, None, None)
    assert [i.amount for i in folded.items] == [1200] and "items" in folded.sent


def test_no_extras_is_the_expense_as_it_is_and_too_big_a_discount_is_refused():
    expense = ExpenseInput.of(description="x", payments=(PaymentInput("a", 10),),
                              items=_items(5, 5))
    assert fold(expense, ()) is expense
    assert folded(Draft(expense)) is expense
    with pytest.raises(Invalid):
        fold(expense, (Extra("Discount", -10),))


# --- the fold, as a property ----------------------------------------------------------------

from hypothesis import given, settings as hypothesis_settings, strategies as st  # noqa: E402


@hypothesis_settings(max_examples=300, deadline=None)
@given(amounts=st.lists(st.integers(1, 10**7), min_size=1, max_size=50),
       extras=st.lists(st.integers(-10**6, 10**6), max_size=20),
       exact=st.booleans(), weights=st.lists(st.integers(0, 1000), min_size=1, max_size=6))
def test_the_fold_is_exact_and_proportional(amounts, extras, exact, weights):
    """The folded items sum to the items plus the extras exactly; each item's share is
    within one unit of its exact proportional share; EXACT splits still sum to their
    item; a fold that would leave an item at zero or less is refused, never written."""
    splits = tuple((f"p{n}", w) for n, w in enumerate(weights))
    if exact and sum(weights) == 0:
        weights[0] = 1
        splits = tuple((f"p{n}", w) for n, w in enumerate(weights))
    items = tuple(ItemInput(f"line {n}", a, "EXACT" if exact else "SHARES",
                            tuple(SplitInput(p, v * a // max(sum(weights), 1) if exact else v)
                                  for p, v in splits))
                  for n, a in enumerate(amounts))
    if exact:  # make each item's EXACT values sum to its amount, as the ledger requires
        items = tuple(i._replace(splits=i.splits[:-1] + (SplitInput(
            i.splits[-1].participant_id,
            i.amount - sum(s.value for s in i.splits[:-1])),)) for i in items)
    expense = ExpenseInput.of(description="x", payments=(PaymentInput("p0", 1),), items=items)
    added = sum(extras)
    try:
        folded = fold(expense, tuple(Extra("e", e) for e in extras))
    except Invalid:
        assert extras and any(a + added * a / sum(amounts) < 1 for a in amounts)
        return
    new = [i.amount for i in folded.items]
    assert sum(new) == sum(amounts) + added and min(new) >= 1
    for before, after in zip(amounts, new, strict=True):
        assert abs((after - before) - added * before / sum(amounts)) < 1
    if exact:
        assert all(sum(s.value for s in i.splits) == i.amount for i in folded.items)
