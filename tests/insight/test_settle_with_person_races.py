"""Settle with a person across groups against a concurrent expense, with real threads on the
serialized embedded DynamoDB endpoint: all or nothing, and every settlement settles exactly
the transfer its group showed when the payment committed."""
from __future__ import annotations

import pytest

import models
from app import create_app
from app.config import Settings
from tests.ledger.helpers import assert_balance_matches_rows, equal_body, join_directly
from tests.ledger.test_races import _together

pytestmark = pytest.mark.race


@pytest.fixture
def live_app(live_db, tmp_path):
    stage = models.base.settings()["stage"]
    return create_app(Settings(stage=stage, region="us-east-1", dynamodb_endpoint=live_db,
                               local_mode=True, data_dir=str(tmp_path), cursor_secret=b"race"))


def _sign_in(client, email: str) -> tuple:
    token = client.post("/dev/tokens", json={"email": email}).get_json()
    headers = {"Authorization": f"Bearer {token['accessToken']}"}
    return headers, client.get("/users/me", headers=headers).get_json()["userId"]


def _between(client, headers, gid: str, a: str, b: str) -> int:
    """What a pays b in the group's plan (negative: b pays a)."""
    owed = 0
    for t in client.get(f"/groups/{gid}/balances", headers=headers).get_json()["transfers"]:
        if (t["fromParticipantId"], t["toParticipantId"]) == (a, b):
            owed += t["amount"]
        elif (t["fromParticipantId"], t["toParticipantId"]) == (b, a):
            owed -= t["amount"]
    return owed


def test_a_payment_across_groups_is_all_or_nothing_under_a_concurrent_expense(live_app):
    client = live_app.test_client()
    headers, _ = _sign_in(client, "payer@example.com")
    _, bo = _sign_in(client, "bo@example.com")
    groups = []
    for name in ("One", "Two"):
        made = client.post("/groups", json={"name": name, "currency": "EUR"},
                           headers=headers).get_json()
        groups.append((made["groupId"], made["myParticipantId"],
                       join_directly(made["groupId"], bo, "MEMBER", "Bo")))
    outcomes = set()
    for round_ in range(4):
        for gid, me, bo_pid in groups:  # I owe Bo 300 in each group
            assert client.post(f"/groups/{gid}/expenses", headers=headers,
                               json=equal_body(bo_pid, 600, [me, bo_pid])).status_code == 201
        racing_gid, racing_me, racing_bo = groups[round_ % 2]

        def settle():
            return live_app.test_client().post(
                f"/users/me/people/{bo}/settle", headers=headers,
                json={"currency": "EUR", "direction": "PAY"})

        def expense():
            return live_app.test_client().post(
                f"/groups/{racing_gid}/expenses", headers=headers,
                json=equal_body(racing_bo, 200, [racing_me, racing_bo]))

        paid, spent = _together([settle, expense])
        assert spent.status_code == 201, spent.get_json()
        assert paid.status_code in (201, 409), paid.get_json()
        written = paid.get_json()["settlements"] if paid.status_code == 201 else []
        # all or nothing: a settlement in every group, or in none
        assert len(written) in (0, 2), written
        if not written:
            outcomes.add("refused")
            for gid, me, bo_pid in groups:
                assert _between(client, headers, gid, me, bo_pid) > 0
                client.post(f"/users/me/people/{bo}/settle", headers=headers,
                            json={"currency": "EUR", "direction": "PAY"})
        else:
            changes = client.get(f"/groups/{racing_gid}/changes?since=0&limit=100",
                                 headers=headers).get_json()["changes"]
            order = {c["id"]: c["revision"] for c in changes}
            settled_first = order[next(s["settlementId"] for s in written
                                       if s["groupId"] == racing_gid)] < \
                order[spent.get_json()["expenseId"]]
            amounts = {s["groupId"]: s["amount"] for s in written}
            assert amounts[racing_gid] == (300 if settled_first else 400)
            assert _between(client, headers, racing_gid, racing_me, racing_bo) == (
                100 if settled_first else 0)
            outcomes.add("settled first" if settled_first else "expense first")
            if settled_first:  # leave nothing owed for the next round
                client.post(f"/users/me/people/{bo}/settle", headers=headers,
                            json={"currency": "EUR", "direction": "PAY"})
        for gid, me, bo_pid in groups:
            assert _between(client, headers, gid, me, bo_pid) == 0
            assert_balance_matches_rows(gid)
    assert outcomes  # every round ended in one of the three consistent states
