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


def _transfer(client, headers, count: int, bystanders: int = 0):
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


def measure(sizes=SIZES, extras: bool = True) -> dict:
    """(calls, wall s) of the transfer at each size; with ``extras``, also at 100 expenses
    beside BYSTANDERS that do not name the source, and at 100 with BATCH_ROWS = 1."""
    from app.groups import transfer
    measured: dict = {"sizes": {}}
    with bench_app() as (client, sign_in):
        headers, _ = sign_in("bench@example.com")
        _transfer(client, headers, 1)  # warm-up
        for count in sizes:
            measured["sizes"][count] = _transfer(client, headers, count)
        if extras:
            measured["bystanders"] = _transfer(client, headers, 100, BYSTANDERS)
            batch, transfer.BATCH_ROWS = transfer.BATCH_ROWS, 1
            try:
                measured["unbatched"] = _transfer(client, headers, 100)
            finally:
                transfer.BATCH_ROWS = batch
    return measured


def report_rows(measured: dict) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() counted."""
    totals = {count: calls.total for count, (calls, _) in measured["sizes"].items()}
    figure = ", ".join(f"{total} for {count}" for count, total in totals.items()) + " expenses"
    if "bystanders" in measured:
        figure += (f": {totals[100] / 100:.2f} per transferred expense at 100, "
                   f"{totals[300] / 300:.2f} at 300; {BYSTANDERS} expenses that do not name "
                   f"the source add {measured['bystanders'][0].total - totals[100]}; one row "
                   "per transaction (BATCH_ROWS=1) would be "
                   f"{measured['unbatched'][0].total / 100:.2f} per expense")
    return [(
        "transfer_calls",
        "participant transfer, DynamoDB calls for a guest named by N expenses (every one a "
        "merge), POST .../transfer", figure)]


def main() -> None:
    measured = measure()
    print(f"{'transfer of a guest named by':<34}  calls  per expense  wall ms  by operation")

    def row(label: str, count: int, calls, elapsed: float) -> None:
        detail = ", ".join(f"{name} {n}" for name, n in sorted(calls.calls.items()))
        print(f"{label:<34}  {calls.total:>5}  {calls.total / count:>11.2f}  "
              f"{elapsed * 1000:>7.0f}  {detail}")

    for count, (calls, elapsed) in measured["sizes"].items():
        row(f"{count} expenses", count, calls, elapsed)
    row(f"100 expenses + {BYSTANDERS} not naming it", 100, *measured["bystanders"])
    row("100 expenses, BATCH_ROWS=1", 100, *measured["unbatched"])
    report("transfer_bench", report_rows(measured))

if __name__ == "__main__":
    main()
