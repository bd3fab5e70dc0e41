"""GET /balances: one GetItem + the roster, minimal transfers, legacy backfill."""
from __future__ import annotations


from app.money.settle import greedy_plan
from app.ledger import balances
from tests.support import aws_calls


def _apply(nets: dict, transfers: list) -> dict:
    result = dict(nets)
    for t in transfers:
        result[t["fromParticipantId"]] += t["amount"]
        result[t["toParticipantId"]] -= t["amount"]
    return result


def test_balances_list_every_participant_and_transfers_settle_every_net(group):
    group.add_expense(900)
    group.add_expense(601, payer=group.guests[0], among=[group.guests[0], group.guests[1]])
    served = group.get("/balances")
    reply = served.get_json()
    assert reply["currency"] == "EUR" and reply["balanceRevision"] == 2
    # The group's revision, the one its ETag and /changes carry (not the money counter).
    tag = served.headers["ETag"]
    assert group.client.get(group.base + "/balances",
                            headers={**group.headers, "If-None-Match": tag}).status_code == 304
    assert reply["revision"] == group.get("/changes?since=0").get_json()["revision"] == 6
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


def test_balances_are_two_calls_with_the_profile_read_and_never_read_expenses(group):
    group.add_expense(900)
    with aws_calls.requests_made() as calls:
        assert group.get("/balances").status_code == 200
    # The Query is the roster; then one BatchGetItem reads the caller's profile (the liveness
    # check every request makes), authorizes, brings BALANCE#v1 and the roster's accounts'
    # payment methods for the transfers' payTo links.
    assert [op for op, _ in calls] == ["Query", "BatchGetItem"]


def test_a_participant_added_after_the_early_roster_read_is_read_again(group):
    from app.core import request_reads
    from app.core.access import authorize
    early = balances.read_roster(group.group_id)  # GET balances reads it before the check
    reply = group.post("/participants", {"displayName": "Late"})
    late = reply.get_json()["participantId"]
    group.add_expense(900, among=[group.me, late])
    request_reads.hold(("roster", group.group_id), early)  # each request above forgot it
    result = balances.group_balances(authorize(group.user_id, group.group_id,
                                               prefetch=balances.BALANCES_PREFETCH))
    assert {row.participant_id: row.display_name for row in result.rows}[late] == "Late"
    assert sum(row.net for row in result.rows) == 0


def test_net_of_folds_exactly_like_the_balances_route(group):
    group.add_expense(900)
    assert balances.net_of(group.group_id, group.me) == 600
    assert balances.net_of(group.group_id, "someone-else") == 0
