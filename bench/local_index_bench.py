"""A GSI Query in local mode at 1,000 and at N items: `.venv/bin/python bench/local_index_bench.py [N]`.

The embedded DynamoDB endpoint as `python -m app serve` runs it (moto patched by
app.local.engine; no journal, which only writes pay), with the groups table of template.yaml
under two stages: one holds 1,000 items, the other N (100,000 by default). Both hold the same
partition of GroupExpensesIndex, a group's 50 expenses; the rest are other groups' expenses,
50 a group. The Query of that partition (all 50 items, newest first, as the expense list asks)
is timed over HTTP through boto3, alternating between the two tables so both meet the same
machine load; the figure is each table's median. Goal (issue 50): the same time ± 20 %.
Then the same with the narrowing switched off (`engine.unnarrowed()`: moto's own walk of the
whole table, as before), fewer times.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import report

BIG = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000  # docs/benchmarks.md's size
SMALL = 1_000
PARTITION = 50  # items in the queried partition, and in every other group
REPEAT = 60
WALK_REPEAT = 3
GROUP = "G-bench"


def _items(total: int):
    """The queried group's expenses, then other groups' until ``total``."""
    for n in range(total):
        group = GROUP if n < PARTITION else f"G{n // PARTITION:06}"
        yield {"GroupId": {"S": group}, "SK": {"S": f"EXPENSE#{n:07}"},
               "ExpenseSortKey": {"S": f"2026-{1 + n % 12:02}-{1 + n % 28:02}#{n:07}"},
               "EntityType": {"S": "EXPENSE"}, "Description": {"S": f"dinner {n}"},
               "Amount": {"N": str(1000 + n % 997)}, "Currency": {"S": "EUR"}}


def _seed(client, table: str, total: int) -> None:
    batch = []
    for item in _items(total):
        batch.append({"PutRequest": {"Item": item}})
        if len(batch) == 25 or item["SK"]["S"] == f"EXPENSE#{total - 1:07}":
            pending = {table: batch}
            while pending:
                pending = client.batch_write_item(RequestItems=pending).get(
                    "UnprocessedItems") or {}
            batch = []


def _query(client, table: str) -> int:
    reply = client.query(TableName=table, IndexName="GroupExpensesIndex",
                         KeyConditionExpression="GroupId = :g", ScanIndexForward=False,
                         ExpressionAttributeValues={":g": {"S": GROUP}})
    assert reply["Count"] == PARTITION, reply["Count"]
    return reply["Count"]


def _alternating(client, tables: list, repeat: int) -> list:
    """Each table's median Query time in ms, the tables asked in turn ``repeat`` times."""
    times = {table: [] for table in tables}
    for _ in range(repeat):
        for table in tables:
            start = time.perf_counter()
            _query(client, table)
            times[table].append((time.perf_counter() - start) * 1000)
    return [statistics.median(times[table]) for table in tables]


def main() -> None:
    from app.local import engine
    from app.local.dynamodb import EmbeddedDynamoDB
    from app.local.template_tables import create_tables

    db = EmbeddedDynamoDB(port=0, stage="idx-small", snapshot_seconds=0).start()
    try:
        client = db.client()
        create_tables(client, "idx-big")
        small, big = "tailspend-idx-small-groups", "tailspend-idx-big-groups"
        started = time.perf_counter()
        _seed(client, small, SMALL)
        _seed(client, big, BIG)
        print(f"seeded {SMALL:,} + {BIG:,} items in {time.perf_counter() - started:.0f} s",
              flush=True)
        _alternating(client, [small, big], 3)  # warm: connections, the index maps' first build
        narrowed = _alternating(client, [small, big], REPEAT)
        with engine.unnarrowed():
            walked = _alternating(client, [small, big], WALK_REPEAT)
    finally:
        db.stop()
    print(f"{'GSI Query, 50 items (ms)':32}{f'{SMALL:,} items':>14}{f'{BIG:,} items':>14}"
          f"{'ratio':>8}")
    for label, (at_small, at_big) in (("index partition (now)", narrowed),
                                      ("moto's walk (before)", walked)):
        print(f"{label:32}{at_small:>14.1f}{at_big:>14.1f}{at_big / at_small:>8.2f}")
    report("local_index_bench", [(
        "local_gsi_query",
        "local mode, a GSI Query of one group's 50 expenses (GroupExpensesIndex, over HTTP) "
        f"with {SMALL:,} and with {BIG:,} items in the table; goal: the same time ± 20 %",
        f"{narrowed[0]:.1f} ms / {narrowed[1]:.1f} ms (×{narrowed[1] / narrowed[0]:.2f}); "
        f"moto's own walk of the table, as before: {walked[0]:.1f} ms / {walked[1]:,.0f} ms "
        f"(×{walked[1] / walked[0]:.1f})")])


if __name__ == "__main__":
    main()
