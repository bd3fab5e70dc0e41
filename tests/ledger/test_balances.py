"""GET /balances: one GetItem + the roster, minimal transfers, legacy backfill."""
from __future__ import annotations

from pynamodb.expressions.operand import Path

from app.money.settle import greedy_plan
from app.services.ledger import balances
from models.groups import Balance
from tests.ledger.helpers import assert_balance_matches_rows, stored_nets


def _apply(nets: dict, transfers: list) -> dict:
    result = dict(nets)
    for t in transfers:
        result[t["fromParticipantId"]] += t["amount"]
        result[t["toParticipantId"]] -= t["amount"]
    return result


def test_balances_list_every_participant_and_transfers_settle_every_net(group):
    group.add_expense(900)
    group.add_expense(601, payer=group.guests[0], among=[group.guests[0], group.guests[1]])
    reply = group.get("/balances").get_json()
    assert reply["currency"] == "EUR" and reply["revision"] == 2
    nets = {row["participantId"]: row["net"] for row in reply["balances"]}
    assert set(nets) == set(group.everyone)
    assert sum(nets.values()) == 0
    assert nets == {group.me: 600, group.guests[0]: -300 + 601 - 301, group.guests[1]: -300 - 300}
    assert set(_apply(nets, reply["transfers"]).values()) == {0}
    assert len(reply["transfers"]) <= len(greedy_plan(nets))


def test_a_participant_without_activity_has_net_zero(group):
    nets = {row["participantId"]: row["net"] for row in group.get("/balances").get_json()[
        "balances"]}
    assert nets == {pid: 0 for pid in group.everyone}


def test_balances_are_two_calls_past_the_profile_read_and_never_read_expenses(group, monkeypatch):
    group.add_expense(900)
    calls = []
    import botocore.client
    real = botocore.client.BaseClient._make_api_call

    def counting(self, operation, params):
        calls.append((operation, params.get("KeyConditionExpression", "")))
        return real(self, operation, params)

    monkeypatch.setattr(botocore.client.BaseClient, "_make_api_call", counting)
    assert group.get("/balances").status_code == 200
    # The caller's profile (read on every request); the BatchGetItem that authorizes also
    # brings BALANCE#v1; the Query is the roster.
    assert [op for op, _ in calls] == ["GetItem", "BatchGetItem", "Query"]


def test_a_missing_balance_row_is_backfilled_before_nets_are_served(group):
    group.add_expense(900)
    group.post("/settlements", {"payerId": group.guests[0], "payeeId": group.me, "amount": 100})
    expected = stored_nets(group.group_id)
    Balance(*Balance.key(group.group_id)).delete()
    reply = group.get("/balances").get_json()
    assert {r["participantId"]: r["net"] for r in reply["balances"] if r["net"]} == expected
    raw = Balance.fetch_raw(group.group_id)
    assert raw["Initialized"]["BOOL"] is True
    assert_balance_matches_rows(group.group_id)


def test_partial_nets_of_an_uninitialised_row_are_never_served(group):
    group.add_expense(900)
    expected = stored_nets(group.group_id)
    # A legacy row: not initialised, holding only the deltas of writes since the rollout.
    Balance(*Balance.key(group.group_id)).update(actions=[
        Balance.Initialized.set(False), Path(Balance.net_attribute(group.me)).set(12345),
        Path(Balance.net_attribute("ghost")).set(-12345)])
    group.add_expense(300, among=[group.me, group.guests[0]])  # accumulates on the legacy row
    expected = {group.me: expected[group.me] + 150, group.guests[0]: -300 - 150,
                group.guests[1]: -300}
    nets = {r["participantId"]: r["net"] for r in group.get("/balances").get_json()["balances"]}
    assert nets == expected
    assert "Net_ghost" not in Balance.fetch_raw(group.group_id)
    assert_balance_matches_rows(group.group_id)


def test_a_money_write_racing_the_backfill_is_not_lost(group, monkeypatch):
    group.add_expense(900)
    Balance(*Balance.key(group.group_id)).delete()
    real = balances.recompute
    state = {"raced": False}

    def recompute_while_someone_writes(group_id):
        result = real(group_id)
        if not state["raced"]:
            state["raced"] = True  # lands after the partition read, before the backfill write
            group.add_expense(300, among=[group.me, group.guests[0]])
        return result

    monkeypatch.setattr(balances, "recompute", recompute_while_someone_writes)
    nets = {r["participantId"]: r["net"] for r in group.get("/balances").get_json()["balances"]}
    assert nets == {group.me: 600 + 150, group.guests[0]: -300 - 150, group.guests[1]: -300}
    assert_balance_matches_rows(group.group_id)


def test_net_of_folds_exactly_like_the_balances_route(group):
    group.add_expense(900)
    assert balances.net_of(group.group_id, group.me) == 600
    assert balances.net_of(group.group_id, "someone-else") == 0
