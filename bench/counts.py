"""The counted rows of docs/benchmarks.md's table, measured again now at a small size:
`.venv/bin/python bench/counts.py` prints them as JSON ({bench: [{key, what, figure}]}).

Each bench's own measure() and report_rows() run here, in one process (the imports are paid
once), at the size in CHECKS: the row's full size where that is cheap, else the smaller sizes
it names (transfer 1 and 10 of 1 / 10 / 100 / 300 expenses...), whose figures are the start
of the full row's. Only calls and billed units: no timing is measured. What the rows are
compared with, and how, is tests/platform/test_bench_counts.py."""
from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench.support  # noqa: F401 — environment defaults and the call counter first

# bench module -> (its rows at the size the check runs, whether that is the bench's full size).
# CPU: ~2 s for the imports, ~4 s for cost_bench's events, ~1-3 s for each other bench.
CHECKS = {
    "account_bench": (lambda m: m.report_rows(m.measure(sizes=(1, 5), through_route=False)),
                      False),
    "cost_bench": (lambda m: m.report_rows(m.measure(repeat=1, expenses=3)), True),
    "cross_group_bench": (lambda m: m.report_rows(m.measure(sizes=(10,), timed=False)), False),
    "developer_bench": (lambda m: m.report_rows(m.measure()), True),
    # Its 5-expense row, the statement and the settle (the 100-expense row: the bench's own run).
    "explained_balances_bench": (lambda m: m.report_rows(m.measure(sizes=(5,))), True),
    "groups_bench": (lambda m: m.report_rows(m.measure()), True),
    "mcp_bench": (lambda m: m.report_rows(m.measure()), True),
    "oauth_bench": (lambda m: m.report_rows(m.measure()), True),
    "people_balances_bench": (lambda m: m.report_rows(m.measure(group_counts=((1, None),))),
                              False),
    "routes_bench": (lambda m: m.report_rows(m.measure(reported_only=True)), True),
    "transfer_bench": (lambda m: m.report_rows(m.measure(sizes=(1, 10), extras=False)), False),
}


def measure(names=tuple(CHECKS)) -> dict:
    """{bench: [{key, what, figure, full}]}: ``full`` when measured at the bench's own size
    (cost_bench's rows but its $ total do not depend on the number of expenses)."""
    found = {}
    for name in names:
        rows, full = CHECKS[name]
        found[f"bench/{name}.py"] = [
            {"key": key, "what": what, "figure": figure, "full": full}
            for key, what, figure in rows(importlib.import_module(f"bench.{name}"))]
    return found

if __name__ == "__main__":
    json.dump(measure(sys.argv[1:] or tuple(CHECKS)), sys.stdout, indent=2)
    print()
