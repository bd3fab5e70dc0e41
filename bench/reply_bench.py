"""Reply shaping on the read hot paths: `.venv/bin/python bench/reply_bench.py` from the repo root.

Replies are dumped by the response schemas from model rows (attribute=, derived fields, a
post_dump where a field is omitted rather than null). Times, on a moto-backed local app,
listing 100 expenses, reading one expense with 100 comments and reading balances, and the
schema dump alone of those 100 expenses. BENCH_ROOT=<checkout> runs it against another tree
(e.g. main, for a before/after on one machine). Argument: the repeats (30)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, os.environ.get("BENCH_ROOT") or str(Path(__file__).resolve().parent.parent))

from bench.money_bench import _body, _group, _seed_comments, _seed_expenses
from bench.support import bench_app, median_ms

REPEAT = int(sys.argv[1]) if len(sys.argv) > 1 else 30  # medians of this many


def main() -> None:
    from app.ledger.schemas import ExpenseSchema
    from models.groups import Expense

    with bench_app("replybench") as (client, sign_in):
        headers, user_id = sign_in("bench@example.com")
        group_id, ids = _group(client, headers)
        _seed_expenses(group_id, ids, 100)
        expense = client.post(f"/groups/{group_id}/expenses", json=_body(ids),
                              headers=headers).get_json()
        _seed_comments(group_id, expense["expenseId"], user_id, 100)

        def get(path):
            return lambda: client.get(path, headers=headers).get_json()

        print(f"reply shaping, median of {REPEAT} (moto-backed local app)")
        rows = [
            ("GET expenses?limit=100", get(f"/groups/{group_id}/expenses?limit=100")),
            ("GET expense with 100 comments",
             get(f"/groups/{group_id}/expenses/{expense['expenseId']}")),
            ("GET balances", get(f"/groups/{group_id}/balances")),
        ]
        for label, action in rows:
            print(f"  {label:<34} {median_ms(action, REPEAT):7.2f} ms")
        stored = list(Expense.listing(group_id, None, None, limit=100))
        schema = ExpenseSchema(many=True)
        try:  # the tree before reply schemas took rows: a service view, then the schema
            from app.ledger.expenses import expense_view
            dump = lambda: schema.dump([expense_view(e) for e in stored])  # noqa: E731
        except ImportError:
            dump = lambda: schema.dump(stored)  # noqa: E731
        print(f"  {'dump 100 expenses (shaping only)':<34} {median_ms(dump, REPEAT):7.2f} ms")


if __name__ == "__main__":
    main()
