"""Balances that explain themselves (issue 46): `.venv/bin/python bench/explained_balances_bench.py`.

DynamoDB calls, measured warm through the Flask test client on moto, of:
- GET balances in the pairwise view at 5 and at 100 expenses: the pairs are materialised on
  the balance row, so the view reads what the plan reads (the roster Query and the
  BatchGetItem that authorizes and brings the balance row), however many expenses;
- one page of a participant's statement: the access check's BatchGetItem (with the balance
  row and the participant) and one Query of GroupExpensesIndex (every money row);
- settling with a person across 3 groups: one TransactWrite for all of them.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls, report

SIZES = (5, 100)
SETTLE_GROUPS = 3


def _expense(client, headers, base: str, payer: str, among: list, amount: int) -> None:
    reply = client.post(f"{base}/expenses", headers=headers, json={
        "description": "Dinner", "amount": amount, "splitMode": "EQUAL",
        "payments": [{"participantId": payer, "amount": amount}],
        "splits": [{"participantId": pid} for pid in among]})
    assert reply.status_code == 201, reply.get_json()


def _warm(client, path: str, headers: dict):
    client.get(path, headers=headers)  # warm: identity cache, lazily built schemas
    with count_dynamodb_calls() as counter:
        reply = client.get(path, headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return counter


def measure(sizes=SIZES) -> dict:
    from tests.ledger.helpers import join_directly

    out: dict = {}
    with bench_app("explained") as (client, sign_in):
        headers, _ = sign_in("owner@example.com")
        _, bo = sign_in("bo@example.com")
        groups = []
        for index in range(SETTLE_GROUPS):
            made = client.post("/groups", json={"name": f"G{index}", "currency": "EUR"},
                               headers=headers).get_json()
            base = f"/groups/{made['groupId']}"
            guests = [client.post(f"{base}/participants", json={"displayName": f"P{n}"},
                                  headers=headers).get_json()["participantId"]
                      for n in range(4)]
            groups.append((base, made["myParticipantId"], guests,
                           join_directly(made["groupId"], bo, "MEMBER", "Bo")))
        # Bo paid for me in every group: the settle over all of them, before the rest.
        for other_base, other_me, _, other_bo in groups:
            _expense(client, headers, other_base, other_bo, [other_me, other_bo], 800)
        with count_dynamodb_calls() as counter:
            reply = client.post(f"/users/me/people/{bo}/settle", headers=headers,
                                json={"currency": "EUR", "direction": "PAY"})
        assert reply.status_code == 201, reply.get_json()
        out["settle"] = counter
        base, me, guests, bo_pid = groups[0]
        everyone = [me, *guests, bo_pid]
        written = 1  # Bo's expense above
        for size in sizes:
            while written < size:
                _expense(client, headers, base, everyone[written % len(everyone)],
                         everyone[: 2 + written % 4], 1000 + written)
                written += 1
            out[f"pairwise_{size}"] = _warm(client, f"{base}/balances?view=pairwise", headers)
        out["statement"] = _warm(client, f"{base}/participants/{me}/statement?limit=25",
                                 headers)
    return out


def report_rows(found: dict) -> list:
    rows = []
    if "pairwise_5" in found:
        rows.append(("pairwise_5_calls", "GET balances?view=pairwise at 5 expenses: DynamoDB "
                     "calls", str(found["pairwise_5"])))
    if "pairwise_100" in found:
        rows.append(("pairwise_100_calls", "GET balances?view=pairwise at 100 expenses: "
                     "DynamoDB calls", str(found["pairwise_100"])))
    rows.append(("statement_calls", "GET a participant's statement, one page: DynamoDB calls",
                 str(found["statement"])))
    rows.append(("settle_person_calls", f"POST /users/me/people/{{userId}}/settle over "
                                        f"{SETTLE_GROUPS} groups: DynamoDB calls",
                 str(found["settle"])))
    return rows


def main() -> None:
    report("explained_balances_bench", report_rows(measure()))


if __name__ == "__main__":
    main()
