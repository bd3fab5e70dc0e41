"""POST /groups/{groupId}/participants/{participantId}/transfer through the API (moto).

Lock, merge of shares, settlements between the two, recurring templates, USER vs GUEST
source, 409s while either side is mid-transfer, resume after a failure injected part-way
through the rewrite, role and PAT refusals."""
from __future__ import annotations

import pytest

from app.groups import participants as participant_service, transfer
from app.ledger import balances
from tests.groups.conftest import participant
from tests.ledger.helpers import assert_balance_matches_rows, stored_nets
from tests.support.faults import transaction_dies_at


def expense(client, owner, payments, splits, mode="EQUAL", amount=None, **extra):
    amount = amount or sum(a for _, a in payments)
    body = {"description": "Dinner", "date": "2026-11-28", "amount": amount,
            "payments": [{"participantId": p, "amount": a} for p, a in payments],
            "splitMode": mode, "splits": [{"participantId": p, "value": v} for p, v in splits],
            **extra}
    reply = client.post(f"/groups/{owner.gid}/expenses", json=body, headers=owner.headers)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def move(client, owner, source, target, headers=None):
    return client.post(f"/groups/{owner.gid}/participants/{source}/transfer",
                       json={"targetParticipantId": target}, headers=headers or owner.headers)


def nets(client, owner):
    reply = client.get(f"/groups/{owner.gid}/balances", headers=owner.headers).get_json()
    return {row["participantId"]: row["net"] for row in reply["balances"]}


def names(gid, pid) -> set:
    """Every participant id any expense, settlement or template of the group names."""
    return {p for prefix, kind in participant_service.REFERENCING_ROWS
            for raw in participant_service._raw_rows(gid, prefix, kind, None)
            for p in participant_service.participant_ids_in(raw)} & {pid}


@pytest.fixture
def trio(client, owner, add_guest):
    """Owner O, guests S (source) and T (target), one expense naming both, one only S."""
    source, target = add_guest("Sam"), add_guest("Tess")
    both = expense(client, owner, [(source, 600), (target, 300)],
                   [(owner.pid, 0), (source, 0), (target, 0)])  # 300 each
    only = expense(client, owner, [(owner.pid, 1000)], [(owner.pid, 1), (source, 3)],
                   mode="SHARES")
    return source, target, both, only


def test_a_guest_is_merged_into_the_target_and_removed(client, owner, trio):
    source, target, both, only = trio
    before = nets(client, owner)
    reply = move(client, owner, source, target)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json() == {"sourceParticipantId": source, "targetParticipantId": target,
                                "sourceRemoved": True, "expenses": 2, "settlements": 0,
                                "settlementsDeleted": 0, "recurring": 0,
                                "conversions": 0}
    after = nets(client, owner)
    assert source not in after
    assert after[owner.pid] == before[owner.pid]
    assert after[target] == before[target] + before[source]
    assert not names(owner.gid, source)
    assert_balance_matches_rows(owner.gid)
    merged = client.get(f"/groups/{owner.gid}/expenses/{both['expenseId']}",
                        headers=owner.headers).get_json()
    assert merged["version"] == 2
    assert merged["payments"] == [{"participantId": target, "amount": 900}]
    item = merged["items"][0]
    assert [(s["participantId"], s["amount"]) for s in item["splits"]] == \
        [(owner.pid, 300), (target, 600)]
    assert (item["splitMode"], [s["value"] for s in item["splits"]]) == ("SHARES", [1, 2])
    renamed = client.get(f"/groups/{owner.gid}/expenses/{only['expenseId']}",
                         headers=owner.headers).get_json()["items"][0]
    assert [(s["participantId"], s["value"], s["amount"]) for s in renamed["splits"]] == \
        [(owner.pid, 1, 250), (target, 3, 750)]
    roster = client.get(f"/groups/{owner.gid}/participants", headers=owner.headers).get_json()
    assert source not in {p["participantId"] for p in roster["items"]}
    assert participant(owner.gid, target).IncomingTransfers == 0
    # The merged expense stays editable: re-resolving its values gives the stored amounts.
    edit = client.patch(f"/groups/{owner.gid}/expenses/{both['expenseId']}",
                        json={"version": 2, "description": "Dinner!"}, headers=owner.headers)
    assert edit.status_code == 200 and edit.get_json()["items"] == merged["items"]


def test_settlements_are_renamed_and_one_between_the_two_is_deleted(client, owner, trio):
    source, target, _, _ = trio
    base = f"/groups/{owner.gid}/settlements"
    between = client.post(base, json={"payerId": source, "payeeId": target, "amount": 100},
                          headers=owner.headers).get_json()
    other = client.post(base, json={"payerId": owner.pid, "payeeId": source, "amount": 50},
                        headers=owner.headers).get_json()
    before = nets(client, owner)
    body = move(client, owner, source, target).get_json()
    assert (body["settlements"], body["settlementsDeleted"]) == (1, 1)
    assert client.get(f"{base}/{between['settlementId']}",
                      headers=owner.headers).status_code == 404
    renamed = client.get(f"{base}/{other['settlementId']}", headers=owner.headers).get_json()
    assert (renamed["payeeId"], renamed["version"]) == (target, 2)
    after = nets(client, owner)
    assert after[owner.pid] == before[owner.pid]
    assert after[target] == before[target] + before[source]
    assert_balance_matches_rows(owner.gid)


def test_recurring_templates_are_rewritten(client, owner, trio):
    source, target, _, _ = trio
    body = {"description": "Rent", "amount": 900, "frequency": "MONTHLY",
            "startDate": "2030-01-01", "payments": [{"participantId": source, "amount": 900}],
            "splitMode": "EQUAL", "splits": [{"participantId": source},
                                             {"participantId": target}]}
    created = client.post(f"/groups/{owner.gid}/recurring", json=body, headers=owner.headers)
    assert created.status_code == 201, created.get_json()
    assert move(client, owner, source, target).get_json()["recurring"] == 1
    template = client.get(f"/groups/{owner.gid}/recurring/{created.get_json()['recurringId']}",
                          headers=owner.headers).get_json()
    assert template["payments"] == [{"participantId": target, "amount": 900}]
    assert [(s["participantId"], s["amount"]) for s in template["items"][0]["splits"]] == \
        [(target, 900)]
    assert template["updatedAt"] != created.get_json()["updatedAt"]
    assert not names(owner.gid, source)


def test_a_user_source_is_unlocked_and_stays(client, owner, join, add_guest):
    member = join("mia@example.com")
    guest = add_guest("Gus")
    expense(client, owner, [(member.pid, 400)], [(member.pid, 0), (owner.pid, 0)])
    before = nets(client, owner)
    body = move(client, owner, member.pid, guest).get_json()
    assert (body["sourceRemoved"], body["expenses"]) == (False, 1)
    row = participant(owner.gid, member.pid)
    assert row.Type == "USER" and row.TransferTarget is None
    after = nets(client, owner)
    assert after[member.pid] == 0 and after[guest] == before[member.pid]
    # Unlocked: the member can be named again, and still reads the group.
    expense(client, owner, [(member.pid, 100)], [(member.pid, 0)])
    assert client.get(f"/groups/{owner.gid}", headers=member.headers).status_code == 200


def test_pages_the_filter_emptied_are_paged_past(client, owner, trio, monkeypatch):
    """One row per page: comment rows share EXPENSE#, so most pages come back empty."""
    source, target, both, only = trio
    for expense_id in (both["expenseId"], only["expenseId"]):
        for n in range(3):
            reply = client.post(f"/groups/{owner.gid}/expenses/{expense_id}/comments",
                                json={"body": f"c{n}"}, headers=owner.headers)
            assert reply.status_code == 201, reply.get_json()
    monkeypatch.setattr(transfer, "PAGE_SIZE", 1)
    assert move(client, owner, source, target).get_json()["expenses"] == 2
    assert not names(owner.gid, source)


def test_refusals(client, owner, trio, join):
    source, target, _, _ = trio
    assert move(client, owner, source, source).status_code == 400
    assert move(client, owner, source, "a" * 8 + "-aaaa-4aaa-8aaa-" + "a" * 12).get_json()[
        "error"]["code"] == "PARTICIPANT_UNAVAILABLE"
    missing = move(client, owner, "b" * 8 + "-bbbb-4bbb-8bbb-" + "b" * 12, target)
    assert missing.status_code == 404
    member = join("mo@example.com")
    assert move(client, owner, source, target, headers=member.headers).status_code == 403
    assert participant(owner.gid, source).TransferTarget is None


def test_a_failure_mid_rewrite_keeps_the_lock_and_the_same_call_resumes(client, owner, trio,
                                                                       monkeypatch, add_guest):
    source, target, _, _ = trio
    third = add_guest("Third")
    before = nets(client, owner)
    monkeypatch.setattr(transfer, "BATCH_ROWS", 1)
    # The lock commits, the first rewrite commits, the second dies.
    with transaction_dies_at(3), pytest.raises(RuntimeError):
        transfer.transfer_participant(_owner_access(owner), source, target)

    assert participant(owner.gid, source).TransferTarget == target
    assert names(owner.gid, source)  # half done: one expense still names the source
    assert_balance_matches_rows(owner.gid)
    # While locked: writes naming the source are refused, the lock holds against others.
    refused = client.post(f"/groups/{owner.gid}/expenses", headers=owner.headers, json={
        "description": "x", "amount": 10, "payments": [{"participantId": source, "amount": 10}],
        "splitMode": "EQUAL", "splits": [{"participantId": owner.pid}]})
    assert refused.get_json()["error"]["code"] == "PARTICIPANT_UNAVAILABLE"
    assert move(client, owner, source, third).get_json()["error"]["code"] == \
        "TRANSFER_IN_PROGRESS"
    assert move(client, owner, third, source).get_json()["error"]["code"] == \
        "PARTICIPANT_UNAVAILABLE"
    assert move(client, owner, target, third).get_json()["error"]["code"] == \
        "TRANSFER_IN_PROGRESS"
    removal = client.delete(f"/groups/{owner.gid}/participants/{target}", headers=owner.headers)
    assert removal.get_json()["error"]["code"] == "TRANSFER_IN_PROGRESS"

    resumed = move(client, owner, source, target)
    assert resumed.status_code == 200 and resumed.get_json()["expenses"] == 1
    after = nets(client, owner)
    assert after[target] == before[target] + before[source]
    assert after[owner.pid] == before[owner.pid]
    assert not names(owner.gid, source)
    assert_balance_matches_rows(owner.gid)
    assert stored_nets(owner.gid) == balances.recompute(owner.gid).nets


def test_an_owners_personal_access_token_cannot_transfer(client, owner, trio):
    """Even with every scope: a transfer rewrites the group's history (app-only: no PAT scope in its @needs)."""
    source, target, _, _ = trio
    minted = client.post("/developer/tokens", headers=owner.headers, json={
        "name": "script", "scopes": ["groups:read", "expenses:write", "settlements:write"],
        "expiresInDays": 1}).get_json()
    reply = move(client, owner, source, target,
                 headers={"Authorization": f"Bearer {minted['token']}"})
    assert reply.status_code == 403
    assert reply.get_json()["error"]["details"]["reason"] == "PAT_NOT_ALLOWED"
    assert participant(owner.gid, source).TransferTarget is None


def _owner_access(owner):
    from app.core.access import authorize
    return authorize(owner.user_id, owner.gid, "OWNER")
