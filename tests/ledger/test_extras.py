"""Extras (tax, tip, service, discount) through the API: shared in proportion to the item
subtotals, exactly, with each extra's shares in the reply (api.md "Money as people share it")."""
from __future__ import annotations

from tests.ledger.helpers import assert_balance_matches_rows, stored_nets


def _body(group, **extra) -> dict:
    me, a, b = group.everyone
    return {"description": "Dinner", "date": "2026-11-28",
            "payments": [{"participantId": me, "amount": 1150}],
            "items": [{"name": "Pasta", "amount": 600, "splitMode": "EXACT",
                       "splits": [{"participantId": a, "value": 400},
                                  {"participantId": me, "value": 200}]},
                      {"name": "Wine", "amount": 400, "splitMode": "EQUAL",
                       "splits": [{"participantId": b}, {"participantId": a}]}],
            "extras": [{"name": "tip", "amount": 100}, {"name": "tax", "amount": 50}],
            **extra}


def test_extras_are_shared_in_proportion_to_item_subtotals(group):
    me, a, b = group.everyone
    reply = group.post("/expenses", _body(group))
    assert reply.status_code == 201, reply.get_json()
    made = reply.get_json()
    assert made["amount"] == 1150
    # Item splits stay the item shares.
    assert [s["amount"] for s in made["items"][0]["splits"]] == [400, 200]
    assert [s["amount"] for s in made["items"][1]["splits"]] == [200, 200]
    # Subtotals a 600, me 200, b 200 of 1000 (order of first appearance: a, me, b).
    tip, tax = made["extras"]
    assert tip == {"name": "tip", "amount": 100, "shares": [
        {"participantId": a, "amount": 60}, {"participantId": me, "amount": 20},
        {"participantId": b, "amount": 20}]}
    assert [s["amount"] for s in tax["shares"]] == [30, 10, 10]
    assert stored_nets(group.group_id) == {me: 1150 - 230, a: -690, b: -230}
    assert_balance_matches_rows(group.group_id)


def test_leftover_units_go_in_the_order_participants_first_appear(group):
    me, a, b = group.everyone
    body = {"description": "Taxi", "date": "2026-11-28",
            "payments": [{"participantId": me, "amount": 302}],
            "amount": 302, "splitMode": "EQUAL",
            "splits": [{"participantId": b}, {"participantId": me}, {"participantId": a}],
            "extras": [{"name": "tip", "amount": 2}]}
    made = group.post("/expenses", body).get_json()
    # The shorthand's one item is amount - extras = 300: 100 each; the tip 2 of 3 goes to
    # b then me (first in the splits), each within one unit of 2/3.
    assert made["items"][0]["amount"] == 300
    assert [(s["participantId"], s["amount"]) for s in made["extras"][0]["shares"]] == [
        (b, 1), (me, 1), (a, 0)]
    assert_balance_matches_rows(group.group_id)


def test_a_discount_is_a_negative_extra(group):
    me, a, b = group.everyone
    body = {"description": "Groceries", "date": "2026-11-28",
            "payments": [{"participantId": me, "amount": 900}],
            "amount": 900, "splitMode": "EQUAL",
            "splits": [{"participantId": p} for p in group.everyone],
            "extras": [{"name": "discount", "amount": -300}]}
    made = group.post("/expenses", body).get_json()
    assert made["items"][0]["amount"] == 1200
    assert [s["amount"] for s in made["extras"][0]["shares"]] == [-100, -100, -100]
    assert stored_nets(group.group_id) == {me: 600, a: -300, b: -300}


def test_extras_that_push_a_share_below_zero_are_a_400(group):
    me, a, _ = group.everyone
    refused = {"description": "Odd", "date": "2026-11-28",
               "payments": [{"participantId": me, "amount": 1}],
               "items": [{"name": "x", "amount": 1, "splitMode": "EXACT",
                          "splits": [{"participantId": me, "value": 0},
                                     {"participantId": a, "value": 1}]},
                         {"name": "y", "amount": 1, "splitMode": "EXACT",
                          "splits": [{"participantId": me, "value": 1}]}],
               # Order me, a, subtotals 1 and 1: each -1 is -0.5 a head, floored to -1 with
               # the leftover unit to me (first), so a takes -1 twice and the tip's leftover
               # goes to me: a owes 1 - 2 = -1.
               "extras": [{"name": "discount", "amount": -1}, {"name": "coupon", "amount": -1},
                          {"name": "tip", "amount": 1}]}
    reply = group.post("/expenses", refused)
    assert reply.status_code == 400, reply.get_json()
    error = reply.get_json()["error"]
    assert error["code"] == "VALIDATION_ERROR"
    assert "below 0" in error["message"] and a in error["message"]
    assert stored_nets(group.group_id) == {}


def test_the_sum_of_items_and_extras_must_equal_amount_and_payments(group):
    body = _body(group, amount=1000)
    reply = group.post("/expenses", body)
    assert reply.status_code == 400
    assert "amount" in reply.get_json()["error"]["details"]
    body = _body(group)
    body["payments"][0]["amount"] = 1000
    reply = group.post("/expenses", body)
    assert reply.status_code == 400
    assert "payments" in reply.get_json()["error"]["message"]


def test_bad_extras_are_400_never_500(group):
    for extras in ([{"name": "", "amount": 5}], [{"name": "tip"}], [{"name": "tip", "amount": 1.5}],
                   [{"name": "tip", "amount": 1, "share": 2}],
                   [{"name": f"t{n}", "amount": 1} for n in range(11)],
                   [{"name": "tip", "amount": -10 ** 12}], "tip"):
        reply = group.post("/expenses", _body(group, extras=extras))
        assert reply.status_code == 400, (extras, reply.get_json())
        assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"


def test_shorthand_whose_extras_eat_the_item_is_a_400(group):
    me = group.me
    body = {"description": "x", "date": "2026-11-28", "amount": 100,
            "payments": [{"participantId": me, "amount": 100}], "splitMode": "EQUAL",
            "splits": [{"participantId": me}], "extras": [{"name": "tip", "amount": 100}]}
    reply = group.post("/expenses", body)
    assert reply.status_code == 400
    assert "amount" in reply.get_json()["error"]["details"]


def test_an_expense_without_extras_shows_an_empty_list(group):
    made = group.add_expense(900)
    assert made["extras"] == []


def test_editing_keeps_replaces_and_clears_extras(group):
    me, a, b = group.everyone
    made = group.post("/expenses", _body(group)).get_json()
    path = f"/expenses/{made['expenseId']}"
    kept = group.patch(path, {"version": 1, "description": "Supper"}).get_json()
    assert kept["extras"] == made["extras"] and kept["amount"] == 1150
    changed = group.patch(path, {"version": 2, "extras": [{"name": "service", "amount": 200}],
                                 "payments": [{"participantId": me, "amount": 1200}]})
    assert changed.status_code == 200, changed.get_json()
    changed = changed.get_json()
    assert changed["amount"] == 1200
    assert [s["amount"] for s in changed["extras"][0]["shares"]] == [120, 40, 40]
    assert_balance_matches_rows(group.group_id)
    cleared = group.patch(path, {"version": 3, "extras": None,
                                 "payments": [{"participantId": me, "amount": 1000}]})
    assert cleared.status_code == 200, cleared.get_json()
    assert cleared.get_json()["extras"] == [] and cleared.get_json()["amount"] == 1000
    assert stored_nets(group.group_id) == {me: 800, a: -600, b: -200}
    assert_balance_matches_rows(group.group_id)
    assert group.delete(path).status_code == 204
    assert stored_nets(group.group_id) == {}
    assert_balance_matches_rows(group.group_id)


def test_a_shorthand_edit_keeps_the_item_and_adds_the_new_extras(group):
    me, a, b = group.everyone
    made = group.add_expense(900)
    path = f"/expenses/{made['expenseId']}"
    edited = group.patch(path, {"version": 1, "splitMode": "EQUAL",
                                "splits": [{"participantId": p} for p in group.everyone],
                                "extras": [{"name": "tip", "amount": 90}],
                                "payments": [{"participantId": me, "amount": 990}]})
    assert edited.status_code == 200, edited.get_json()
    assert edited.get_json()["items"][0]["amount"] == 900
    assert edited.get_json()["amount"] == 990
    assert_balance_matches_rows(group.group_id)


def test_a_converted_expense_apportions_item_and_extra_shares_together(group):
    me, a, b = group.everyone
    body = _body(group, currency="USD", groupAmount=1001)
    reply = group.post("/expenses", body)
    assert reply.status_code == 201, reply.get_json()
    made = reply.get_json()
    owed = {}
    for item in made["items"]:
        for split in item["splits"]:
            owed[split["participantId"]] = owed.get(split["participantId"], 0) + split["groupAmount"]
    for extra in made["extras"]:
        for share in extra["shares"]:
            owed[share["participantId"]] += share["groupAmount"]
    assert sum(owed.values()) == 1001
    assert stored_nets(group.group_id) == {me: 1001 - owed[me], a: -owed[a], b: -owed[b]}
    assert_balance_matches_rows(group.group_id)


def test_a_transfer_folds_extra_shares_into_the_target(group):
    me, a, b = group.everyone
    made = group.post("/expenses", _body(group)).get_json()
    before = stored_nets(group.group_id)
    reply = group.post(f"/participants/{a}/transfer", {"targetParticipantId": b})
    assert reply.status_code in (200, 202, 204), reply.get_json()
    after = group.get(f"/expenses/{made['expenseId']}").get_json()
    # a appeared first; b's shares are folded into that place.
    assert [(s["participantId"], s["amount"]) for s in after["extras"][0]["shares"]] == [
        (b, 80), (me, 20)]
    assert stored_nets(group.group_id) == {me: before[me], b: before[a] + before[b]}
    assert_balance_matches_rows(group.group_id)


def test_stats_count_each_participants_extra_shares_as_spent(group):
    me, a, b = group.everyone
    group.post("/expenses", _body(group))
    rows = {r["key"]: r for r in group.get("/stats", query_string={"by": "participant"})
            .get_json()["rows"]}
    assert {pid: rows[pid]["spent"] for pid in (me, a, b)} == {me: 230, a: 690, b: 230}
