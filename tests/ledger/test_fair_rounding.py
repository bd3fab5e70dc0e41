"""FAIR rounding through the API (issue 46, item 3): the group setting, the leftover units
spread by cumulative rounding, and r kept exactly on the balance row by creates, edits and
deletes (equal to a recomputation from the rows)."""
from __future__ import annotations

from fractions import Fraction

from app.ledger import rounding
from models.groups import Balance
from tests.ledger.helpers import assert_balance_matches_rows


def _owed(expense: dict) -> dict:
    return {s["participantId"]: s["amount"] for s in expense["items"][0]["splits"]}


def _assert_stored_rounding_is_recomputed(group) -> None:
    stored = rounding.stored(Balance.fetch_raw(group.group_id))
    assert stored == rounding.recompute(group.group_id, "EUR")
    assert sum(stored.values()) == 0


def test_list_order_is_the_default_and_rounds_the_first_up_every_time(group):
    assert group.get("").get_json()["rounding"] == "LIST_ORDER"
    for _ in range(3):
        owed = _owed(group.add_expense(100))
        assert owed[group.everyone[0]] == 34
    assert "rounding" not in group.get("/balances").get_json()


def test_fair_rounds_up_whoever_was_rounded_up_least(group):
    reply = group.client.patch(group.base, json={"rounding": "FAIR"}, headers=group.headers)
    assert reply.status_code == 200 and reply.get_json()["rounding"] == "FAIR"
    firsts = [next(pid for pid, v in _owed(group.add_expense(100)).items() if v == 34)
              for _ in range(3)]
    assert sorted(firsts) == sorted(group.everyone)  # each rounded up once
    balances = group.get("/balances").get_json()
    assert {r["cumulative"] for r in balances["rounding"]} == {"0.000000"}
    _assert_stored_rounding_is_recomputed(group)


def test_turning_fair_on_counts_the_history_and_edits_and_deletes_keep_r(group):
    first = group.add_expense(100)  # list order: me rounded up (+2/3), the others -1/3
    reply = group.client.patch(group.base, json={"rounding": "FAIR"}, headers=group.headers)
    assert reply.status_code == 200
    shown = {r["participantId"]: r["cumulative"]
             for r in group.get("/balances").get_json()["rounding"]}
    assert shown == {group.me: "0.666667", group.guests[0]: "-0.333333",
                     group.guests[1]: "-0.333333"}
    second = group.add_expense(100)
    assert _owed(second)[group.me] == 33  # the guest first in list order goes up instead
    _assert_stored_rounding_is_recomputed(group)
    renamed = group.patch(f"/expenses/{second['expenseId']}",
                          {"version": 1, "description": "Renamed"})
    assert renamed.status_code == 200
    assert _owed(renamed.get_json()) == _owed(second)  # nothing moved by a rename
    edited = group.patch(f"/expenses/{first['expenseId']}", {"version": 1, "amount": 200,
                                                             "payments": [{
                                                                 "participantId": group.me,
                                                                 "amount": 200}]})
    assert edited.status_code == 200, edited.get_json()
    _assert_stored_rounding_is_recomputed(group)
    assert group.delete(f"/expenses/{second['expenseId']}").status_code == 204
    _assert_stored_rounding_is_recomputed(group)
    r = rounding.section(rounding.stored(Balance.fetch_raw(group.group_id)), None)
    assert all(abs(value) < Fraction(3, 2) for value in r.values())
    assert_balance_matches_rows(group.group_id)


def test_only_an_owner_sets_rounding_and_an_unknown_mode_is_a_400(group):
    reply = group.client.patch(group.base, json={"rounding": "RANDOM"}, headers=group.headers)
    assert reply.status_code == 400


def test_a_fair_groups_recurring_occurrences_spread_the_cents_and_keep_r(group):
    from app.recurring.tick import run_bucket
    from models.groups import RecurringExpense
    assert group.client.patch(group.base, json={"rounding": "FAIR"},
                              headers=group.headers).status_code == 200
    made = group.post("/recurring", {
        "description": "Coffee", "amount": 100, "splitMode": "EQUAL",
        "payments": [{"participantId": group.me, "amount": 100}],
        "splits": [{"participantId": pid} for pid in group.everyone],
        "frequency": "DAILY", "startDate": "2026-01-01", "endDate": "2026-01-03"})
    assert made.status_code == 201, made.get_json()
    result = run_bucket(RecurringExpense.bucket_of(group.group_id), "2026-01-04T00:00:00Z")
    assert result["created"] == 3
    listed = group.get("/expenses?limit=10").get_json()["items"]
    rounded_up = sorted(next(s["participantId"] for s in e["items"][0]["splits"]
                             if s["amount"] == 34) for e in listed)
    assert rounded_up == sorted(group.everyone)
    _assert_stored_rounding_is_recomputed(group)
    assert_balance_matches_rows(group.group_id)


def test_a_transfer_in_a_fair_group_moves_the_sources_rounding_to_the_target(group):
    assert group.client.patch(group.base, json={"rounding": "FAIR"},
                              headers=group.headers).status_code == 200
    for _ in range(2):
        group.add_expense(100)
    source, target = group.guests
    moved = group.post(f"/participants/{source}/transfer", {"targetParticipantId": target})
    assert moved.status_code == 200, moved.get_json()
    _assert_stored_rounding_is_recomputed(group)
    assert_balance_matches_rows(group.group_id)
