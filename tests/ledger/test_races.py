"""Races with real threads against the serialized embedded DynamoDB endpoint."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import models
from app import create_app
from app.config import Settings
from app.errors import Conflict, NotFound
from app.ledger import comments, expense_delete, expenses, settlements
from app.money.settlement_input import SettlementInput
from models.groups import GroupItem
from tests.ledger.helpers import (assert_balance_matches_rows, equal_body, make_group, make_user,
                                 stored_nets)
from tests.support.expense_requests import as_create

pytestmark = pytest.mark.race


def _together(functions):
    """Run every function at once (released by one barrier); return results or exceptions."""
    barrier = threading.Barrier(len(functions))

    def run(function):
        barrier.wait()
        try:
            return function()
        except Exception as error:  # noqa: BLE001 - the outcome is what we assert on
            return error

    with ThreadPoolExecutor(len(functions)) as pool:
        return list(pool.map(run, functions))


@pytest.fixture
def live_client(live_db, tmp_path):
    """An API app on the live endpoint (the stage live_db configured)."""
    stage = models.base.settings()["stage"]
    app = create_app(Settings(stage=stage, region="us-east-1", dynamodb_endpoint=live_db,
                              local_mode=True, data_dir=str(tmp_path), cursor_secret=b"race"))
    return app


def test_two_concurrent_edits_of_one_expense_one_200_one_409(live_client):
    client = live_client.test_client()
    token = client.post("/dev/tokens", json={"email": "racer@example.com"}).get_json()
    headers = {"Authorization": f"Bearer {token['accessToken']}"}
    group = client.post("/groups", json={"name": "Race", "currency": "EUR"},
                        headers=headers).get_json()
    base, me = f"/groups/{group['groupId']}", group["myParticipantId"]
    guest = client.post(f"{base}/participants", json={"displayName": "G"},
                        headers=headers).get_json()["participantId"]
    for round_ in range(5):
        expense = client.post(f"{base}/expenses", json=equal_body(me, 1000, [me, guest]),
                              headers=headers).get_json()
        path = f"{base}/expenses/{expense['expenseId']}"

        def edit(payer, amount):
            body = {"version": 1, "amount": amount,
                    "payments": [{"participantId": payer, "amount": amount}]}
            return live_client.test_client().patch(path, json=body, headers=headers).status_code

        statuses = _together([lambda: edit(me, 3000), lambda: edit(guest, 5000)])
        assert sorted(statuses) == [200, 409], (round_, statuses)
        assert_balance_matches_rows(group["groupId"])
    assert sum(stored_nets(group["groupId"]).values()) == 0


def test_concurrent_creates_from_many_threads_all_land_in_the_balance(live_db):
    access, ids = make_group(make_user("crowd@example.com"), guests=3)
    threads, per_thread = 8, 4

    def create_many(offset):
        def run():
            for index in range(per_thread):
                payer = ids[(offset + index) % len(ids)]
                expenses.create_expense(access, as_create(equal_body(payer, 100 + offset, ids)))
            settlements.create_settlement(access, SettlementInput.of(payer_id=ids[0], payee_id=ids[1], amount=7))
        return run

    results = _together([create_many(offset) for offset in range(threads)])
    assert [r for r in results if isinstance(r, Exception)] == []
    assert_balance_matches_rows(access.group_id)
    from models.groups import Balance
    raw = Balance.fetch_raw(access.group_id)
    assert int(raw["ExpenseCount"]["N"]) == threads * per_thread
    assert int(raw["SettlementCount"]["N"]) == threads
    assert int(raw["BalanceRevision"]["N"]) == threads * (per_thread + 1)


def test_comments_racing_an_expense_delete_all_come_back_with_a_restore(live_db):
    """Every comment that landed stays (the delete touches none), so a restore brings the
    whole thread back; the delete itself never loses to the commenters."""
    from app.ledger import trash
    from models.groups import Trashed
    access, ids = make_group(make_user("orphans@example.com"), guests=1)
    for _ in range(3):
        expense = expenses.create_expense(access, as_create(equal_body(ids[0], 100, ids)))
        eid = expense.ExpenseId

        def commenter(index):
            def run():
                for n in range(3):
                    comments.add_comment(access, eid, f"c{index}-{n}")
            return run

        results = _together([lambda: expense_delete.delete_expense(access, eid)] +
                            [commenter(index) for index in range(3)])
        assert results[0] is None, results[0]
        for outcome in results[1:]:
            assert outcome is None or isinstance(outcome, (NotFound, Conflict)), outcome
        left = list(GroupItem.query(access.group_id,
                                    GroupItem.SK.startswith(f"EXPENSE#{eid}#"),
                                    consistent_read=True))
        assert Trashed.get(access.group_id, Trashed.sort_key(eid))
        trash.restore(access, eid)
        assert len(list(GroupItem.query(access.group_id,
                                        GroupItem.SK.startswith(f"EXPENSE#{eid}#"),
                                        consistent_read=True))) == len(left) + 1
    assert_balance_matches_rows(access.group_id)
