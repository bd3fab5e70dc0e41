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

from bench.support import bench_app, count_dynamodb_calls

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


def _seed(gid: str, among: list, count: int, tag: int) -> None:
    """Expense heads straight to the table (paid by the first, split equally among all)."""
    from models.groups import Balance, Expense, ItemMap, PaymentMap, SplitMap
    share = 900 // len(among)
    owed = [share + (1 if i < 900 - share * len(among) else 0) for i in range(len(among))]
    with Expense.batch_write() as batch:
        for index in range(count):
            eid = f"00000000-0000-4000-8{tag:03d}-{index:012d}"
            created = f"2026-01-01T00:00:00.{index % 1000:03d}Z"
            batch.save(Expense(gid, Expense.sort_key(eid), ExpenseId=eid,
                               ExpenseSortKey=Expense.expense_sort_key("2026-01-01", created,
                                                                       eid),
                               Description="seeded", Date="2026-01-01", Currency="EUR",
                               Amount=900, Version=1, CreatedAt=created,
                               Payments=[PaymentMap(ParticipantId=among[0], Amount=900)],
                               Items=[ItemMap(Name="seeded", Amount=900, SplitMode="EQUAL",
                                              Splits=[SplitMap(ParticipantId=p, Value=0,
                                                               Amount=o)
                                                      for p, o in zip(among, owed, strict=True)])]))
    # Let the balances route's backfill fold the seeded rows (the transfer then adds deltas).
    Balance(*Balance.key(gid)).update(actions=[Balance.Initialized.set(False)])


def measure(client, headers, count: int, bystanders: int = 0):
    gid, (owner, source, target) = _group(client, headers)
    _seed(gid, [source, owner, target], count, 1)
    if bystanders:
        _seed(gid, [owner, target], bystanders, 2)
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
    return calls, elapsed


def main() -> None:
    from app.local import engine
    from app.services.groups import transfer
    engine.install()  # without it moto copies the whole table per transaction
    with bench_app() as (client, sign_in):
        headers, _ = sign_in("bench@example.com")
        measure(client, headers, 1)  # warm-up
        print(f"{'transfer of a guest named by':<34}  calls  per expense  wall ms  by operation",
              flush=True)

        def row(label: str, count: int, calls, elapsed: float) -> None:
            detail = ", ".join(f"{name} {n}" for name, n in sorted(calls.calls.items()))
            print(f"{label:<34}  {calls.total:>5}  {calls.total / count:>11.2f}  "
                  f"{elapsed * 1000:>7.0f}  {detail}", flush=True)

        for count in SIZES:
            row(f"{count} expenses", count, *measure(client, headers, count))
        row(f"100 expenses + {BYSTANDERS} not naming it", 100,
            *measure(client, headers, 100, BYSTANDERS))
        batch, transfer.BATCH_ROWS = transfer.BATCH_ROWS, 1
        try:
            row("100 expenses, BATCH_ROWS=1", 100, *measure(client, headers, 100))
        finally:
            transfer.BATCH_ROWS = batch


if __name__ == "__main__":
    main()
