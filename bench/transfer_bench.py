"""Participant transfer benchmark: `.venv/bin/python bench/transfer_bench.py` from the repo root.

Prints the DynamoDB calls of POST /groups/{groupId}/participants/{participantId}/transfer
(on a moto-backed local app, after a warm-up request) for a guest named by 1, 10, 100 and
300 expenses (each also naming the target, so every one is a merge), plus 300 expenses
that do not name it, and the calls per transferred expense. The last rows repeat 100
expenses with one expense per rewrite transaction (BATCH_ROWS = 1), to show what batching
saves. Wall times are moto's in-process ones with the embedded endpoint's patches (undo log
instead of a table copy per transaction, partition-bounded Query): indicative only.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls, report

SIZES = (1, 10, 100, 300)
BYSTANDERS = 300


def _group(client, headers):
    group = client.post("/groups", json={"name": "Bench", "currency": "EUR"},
                        headers=headers).get_json()
    gid, ids = group["groupId"], [group["myParticipantId"]]
    for name in ("Source", "Target"):
        ids.append(client.post(f"/groups/{gid}/participants", json={"displayName": name},
                               headers=headers).get_json()["participantId"])
    return gid, ids


def _seed(client, headers, gid: str, among: list, count: int) -> None:
    """``count`` expenses through POST /groups/{id}/expenses, as a user adds them: paid by the
    first, split equally among all (each create updates the materialised balance in its own
    transaction, so the transfer meets real rows and a real BALANCE#v1)."""
    for index in range(count):
        reply = client.post(f"/groups/{gid}/expenses", headers=headers, json={
            "description": f"seeded {index}", "date": "2026-01-01", "amount": 900,
            "splitMode": "EQUAL", "payments": [{"participantId": among[0], "amount": 900}],
            "splits": [{"participantId": pid, "value": 1} for pid in among]})
        assert reply.status_code == 201, reply.get_json()


def measure(client, headers, count: int, bystanders: int = 0):
    gid, (owner, source, target) = _group(client, headers)
    _seed(client, headers, gid, [source, owner, target], count)
    if bystanders:
        _seed(client, headers, gid, [owner, target], bystanders)
    before = client.get(f"/groups/{gid}/balances", headers=headers).get_json()
    nets = {row["participantId"]: row["net"] for row in before["balances"]}
    started = time.perf_counter()
    with count_dynamodb_calls() as calls:
        reply = client.post(f"/groups/{gid}/participants/{source}/transfer",
                            json={"targetParticipantId": target}, headers=headers)
    elapsed = time.perf_counter() - started
    assert reply.status_code == 200 and reply.get_json()["expenses"] == count, reply.get_json()
    after = client.get(f"/groups/{gid}/balances", headers=headers).get_json()
    moved = {row["participantId"]: row["net"] for row in after["balances"]}
    assert moved[target] == nets[source] + nets[target] and moved[owner] == nets[owner]
    assert source not in moved and sum(moved.values()) == 0, moved
    return calls, elapsed


def main() -> None:
    from app.services.groups import transfer
    with bench_app() as (client, sign_in):
        headers, _ = sign_in("bench@example.com")
        measure(client, headers, 1)  # warm-up
        print(f"{'transfer of a guest named by':<34}  calls  per expense  wall ms  by operation",
              flush=True)

        def row(label: str, count: int, calls, elapsed: float) -> None:
            detail = ", ".join(f"{name} {n}" for name, n in sorted(calls.calls.items()))
            print(f"{label:<34}  {calls.total:>5}  {calls.total / count:>11.2f}  "
                  f"{elapsed * 1000:>7.0f}  {detail}", flush=True)

        totals = {}
        for count in SIZES:
            calls, elapsed = measure(client, headers, count)
            row(f"{count} expenses", count, calls, elapsed)
            totals[count] = calls.total
        calls, elapsed = measure(client, headers, 100, BYSTANDERS)
        row(f"100 expenses + {BYSTANDERS} not naming it", 100, calls, elapsed)
        bystanders = calls.total - totals[100]
        batch, transfer.BATCH_ROWS = transfer.BATCH_ROWS, 1
        try:
            calls, elapsed = measure(client, headers, 100)
            row("100 expenses, BATCH_ROWS=1", 100, calls, elapsed)
            unbatched = calls.total / 100
        finally:
            transfer.BATCH_ROWS = batch
    sizes = ", ".join(f"{totals[n]} for {n}" for n in SIZES)
    report("transfer_bench", [(
        "transfer_calls",
        "participant transfer, DynamoDB calls for a guest named by N expenses (every one a "
        "merge), POST .../transfer",
        f"{sizes} expenses: {totals[100] / 100:.2f} per transferred expense at 100, "
        f"{totals[300] / 300:.2f} at 300; {BYSTANDERS} expenses that do not name the source "
        f"add {bystanders}; one row per transaction (BATCH_ROWS=1) would be {unbatched:.2f} "
        "per expense")])


if __name__ == "__main__":
    main()
