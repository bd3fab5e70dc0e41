"""Local mode at scale: `.venv/bin/python bench/local_scale_bench.py [N]` from the repo root.

The API (Flask test client) on the embedded DynamoDB endpoint exactly as `python -m app serve`
runs it (serialized, journaled with fsync, moto patched by app.local.engine). Times adding an
expense and reading balances in an empty group, then in a group of 5,000 expenses with ~20 MB
in the database, and prints each as a ratio to the empty database. Goal: under 50 ms, flat.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import embedded_app, median_ms
from bench.money_bench import _body, _group, _seed_expenses

EXPENSES = int(sys.argv[1]) if len(sys.argv) > 1 else 5000  # docs/benchmarks.md's size
FILLER = 3 * EXPENSES  # expenses in another group, padding the database (~20 MB at 5,000)
REPEAT = 15


def _measure(client, headers, gid, ids) -> tuple[float, float]:
    base = f"/groups/{gid}"

    def add():
        reply = client.post(f"{base}/expenses", json=_body(ids), headers=headers)
        assert reply.status_code == 201, reply.get_json()

    def balances():
        reply = client.get(f"{base}/balances", headers=headers)
        assert reply.status_code == 200, reply.get_json()

    balances()  # warm: connections, and the one-time backfill of seeded groups
    return median_ms(add, REPEAT), median_ms(balances, REPEAT)


def main() -> None:
    with embedded_app("scale", email="scale@example.com") as (client, headers):
        empty_gid, empty_ids = _group(client, headers)
        empty = _measure(client, headers, empty_gid, empty_ids)
        big_gid, big_ids = _group(client, headers)
        filler_gid, filler_ids = _group(client, headers)
        start = time.perf_counter()
        _seed_expenses(big_gid, big_ids, EXPENSES)
        _seed_expenses(filler_gid, filler_ids, FILLER)
        seeded = time.perf_counter() - start
        size = sum(len(line) for _, table in _tables() for line in table)
        big = _measure(client, headers, big_gid, big_ids)
    print(f"seeded {EXPENSES + FILLER:,} expenses (~{size / 1e6:.0f} MB) in {seeded:.0f} s")
    print(f"{'':28}{'empty':>10}{f'{EXPENSES:,} exp.':>12}{'ratio':>8}")
    for label, small, large in (("POST expense (ms)", empty[0], big[0]),
                                ("GET balances (ms)", empty[1], big[1])):
        print(f"{label:28}{small:>10.1f}{large:>12.1f}{large / small:>8.2f}")


def _tables():
    import json

    from app.local.dynamodb import _moto_tables, _wire

    # As the snapshot writes them (binaries as base64: moto's to_json leaves a binary set's
    # members as bytes, which json cannot encode).
    for name, table in _moto_tables():
        yield name, [json.dumps(_wire(item.to_json()["Attributes"])) for item in table.all_items()]


if __name__ == "__main__":
    main()
