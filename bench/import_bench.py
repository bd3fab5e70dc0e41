"""Import throughput: `.venv/bin/python bench/import_bench.py [rows]` from the repo root.

Builds a Splitwise group export of 10,000 rows (8 members, one row in ten a Payment, one in
four with two payers, CRLF, a Total balance row) and imports it through POST /imports on the
embedded DynamoDB endpoint exactly as `python -m app serve` runs it (serialized, journaled,
moto patched by app.local.engine), the worker inline. Prints the file size, the POST's time
(read, check, stage), the worker's time and rows per second, and the DynamoDB calls per
imported row by operation. Wall times are moto's: indicative only; the calls are what AWS
would see.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import count_dynamodb_calls, embedded_app

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
MEMBERS = ["Ana", "Bjørn", "Chloé", "Dev", "Eun-ji", "Femi", "Gosia", "Hiro"]


def splitwise_file(rows: int, seed: int = 7) -> str:
    """A Splitwise export with ``rows`` expense and payment rows that all sum to 0."""
    rng = random.Random(seed)
    lines = ["Date,Description,Category,Cost,Currency," + ",".join(MEMBERS), ""]
    totals = [0] * len(MEMBERS)
    for index in range(rows):
        date = f"2025-{index % 12 + 1:02d}-{index % 28 + 1:02d}"
        cells = [0] * len(MEMBERS)
        if index % 10 == 9:
            payer, payee = rng.sample(range(len(MEMBERS)), 2)
            cost = rng.randint(100, 20_000)
            cells[payer], cells[payee] = cost, -cost
            description, category = f"{MEMBERS[payer]} paid {MEMBERS[payee]}", "Payment"
        else:
            among = rng.sample(range(len(MEMBERS)), rng.randint(2, len(MEMBERS)))
            cost = rng.randint(100, 50_000)
            share, extra = divmod(cost, len(among))
            for position, member in enumerate(among):
                cells[member] -= share + (1 if position < extra else 0)
            payers = among[:2] if index % 4 == 0 else among[:1]
            first = cost // 2 if len(payers) == 2 else cost
            cells[payers[0]] += first
            if len(payers) == 2:
                cells[payers[1]] += cost - first
            description, category = f"Expense {index}", "General"
        totals = [t + c for t, c in zip(totals, cells, strict=True)]
        lines.append(f"{date},{description},{category},{cost / 100:.2f},EUR," +
                     ",".join(f"{c / 100:.2f}" for c in cells))
    lines += ["", "2026-01-01,Total balance, , ,EUR," + ",".join(f"{t / 100:.2f}" for t in totals)]
    return "\r\n".join(lines) + "\r\n"


def main() -> None:
    content = splitwise_file(ROWS)
    with embedded_app("imports", max_body_bytes=64 * 1024) as (client, headers):
        from app.core import handoff

        held = []
        handoff.use_local_runner("import", lambda m: held.append((m["groupId"], m["importId"])))
        start = time.perf_counter()
        with count_dynamodb_calls() as api_calls:
            reply = client.post("/imports", json={"format": "splitwise-csv",
                                                  "content": content, "me": "Ana"},
                                headers=headers)
        posted = time.perf_counter() - start
        assert reply.status_code == 202, reply.get_json()
        ((group_id, import_id),) = held
        from app.imports.run_import import run_import

        start = time.perf_counter()
        with count_dynamodb_calls() as worker_calls:
            outcome = run_import(group_id, import_id)
        ran = time.perf_counter() - start
        status = client.get(f"/imports/{import_id}", headers=headers).get_json()
        print(f"worker: {outcome}", flush=True)
    assert outcome == "DONE", status
    counts = status["counts"]
    imported = counts["expenses"] + counts["settlements"]
    print(f"file: {ROWS:,} rows, {len(content.encode()) / 1e6:.2f} MB; imported {imported:,} "
          f"({counts['expenses']:,} expenses, {counts['settlements']:,} settlements), "
          f"{len(status['warnings'])} warnings")
    print(f"POST /imports (read, check, stage): {posted:.1f} s, DynamoDB calls {api_calls}")
    print(f"worker: {ran:.1f} s = {imported / ran:,.0f} rows/s; DynamoDB calls {worker_calls}")
    print(f"DynamoDB calls per imported row: worker {worker_calls.total / imported:.3f}, "
          f"all {(worker_calls.total + api_calls.total) / imported:.3f}")


if __name__ == "__main__":
    main()
