"""Money benchmark: `.venv/bin/python bench/money_bench.py` from the repo root.

Prints DynamoDB calls per request on a moto-backed local app for the money routes (create,
read with 100 comments, list, edit, delete, balances at 10 and at 5,000 expenses: the two
must be equal, since balances never read expenses), then the settle-up solver's time and
payment count for 10, 20 and 1,000 participants against greedy.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls

LARGE_GROUP = 5000


def _group(client, headers, guests: int = 2):
    group = client.post("/groups", json={"name": "Bench", "currency": "EUR"},
                        headers=headers).get_json()
    ids = [group["myParticipantId"]]
    for index in range(guests):
        ids.append(client.post(f"/groups/{group['groupId']}/participants",
                               json={"displayName": f"G{index}"},
                               headers=headers).get_json()["participantId"])
    return group["groupId"], ids


def _body(ids, amount=900):
    return {"description": "Dinner", "date": "2026-11-28", "amount": amount,
            "payments": [{"participantId": ids[0], "amount": amount}],
            "splitMode": "EQUAL", "splits": [{"participantId": pid} for pid in ids]}


def _seed_expenses(group_id: str, ids: list, count: int) -> None:
    """Write expense heads straight to the table, and their nets to the balance row."""
    from models.groups import Balance, Expense, ItemMap, PaymentMap, SplitMap
    with Expense.batch_write() as batch:
        for index in range(count):
            eid = f"00000000-0000-4000-8000-{index:012d}"
            created = f"2026-01-01T00:00:00.{index % 1000:03d}Z"
            share = [300, 300, 300]
            batch.save(Expense(group_id, Expense.sort_key(eid), ExpenseId=eid,
                               ExpenseSortKey=Expense.expense_sort_key("2026-01-01", created, eid),
                               Description="seeded", Date="2026-01-01", Currency="EUR",
                               Amount=900, Version=1, CreatedAt=created,
                               Payments=[PaymentMap(ParticipantId=ids[0], Amount=900)],
                               Items=[ItemMap(Name="seeded", Amount=900, SplitMode="EQUAL",
                                              Splits=[SplitMap(ParticipantId=p, Value=0, Amount=s)
                                                      for p, s in zip(ids, share, strict=True)])]))
    from models.groups import balance_row
    nets = {ids[0]: 600 * count, ids[1]: -300 * count, ids[2]: -300 * count}
    written = balance_row.encode(Balance.fetch_raw(group_id), nets=nets)
    Balance(*Balance.key(group_id)).update(actions=[*written.actions,
                                                    Balance.ExpenseCount.add(count)],
                                           condition=written.condition)


def _seed_comments(group_id: str, expense_id: str, user_id: str, count: int) -> None:
    from models.groups import Comment
    with Comment.batch_write() as batch:
        for index in range(count):
            created = f"2026-01-01T00:00:00.{index:03d}Z"
            batch.save(Comment(group_id, Comment.sort_key(expense_id, created, f"c{index}"),
                               CommentId=f"c{index}", AuthorUserId=user_id, Body="hello",
                               CreatedAt=created))


def request_costs() -> None:
    with bench_app() as (client, sign_in):
        headers, user_id = sign_in("bench@example.com")
        group_id, ids = _group(client, headers)
        base = f"/groups/{group_id}"
        client.post(f"{base}/expenses", json=_body(ids), headers=headers)  # warm connections

        def measure(label, method, path, body=None, expect=200):
            with count_dynamodb_calls() as calls:
                reply = client.open(path, method=method, json=body, headers=headers)
            assert reply.status_code == expect, (label, reply.status_code, reply.get_json())
            print(f"  {label:<44} {calls}")
            return reply

        print("DynamoDB calls per request (moto-backed local app)")
        created = measure("POST expense (3 participants)", "POST", f"{base}/expenses",
                          _body(ids), 201).get_json()
        eid = created["expenseId"]
        _seed_comments(group_id, eid, user_id, 100)
        measure("GET expense with 100 comments", "GET", f"{base}/expenses/{eid}")
        measure("GET /expenses/{id} with 100 comments", "GET", f"/expenses/{eid}")
        for _ in range(8):
            client.post(f"{base}/expenses", json=_body(ids), headers=headers)
        measure("GET expenses (list, 10 expenses)", "GET", f"{base}/expenses")
        measure("PATCH expense", "PATCH", f"{base}/expenses/{eid}",
                {"version": 1, "description": "Lunch"})
        measure("POST comment", "POST", f"{base}/expenses/{eid}/comments", {"body": "hi"}, 201)
        measure("POST settlement", "POST", f"{base}/settlements",
                {"payerId": ids[1], "payeeId": ids[0], "amount": 300}, 201)
        small = measure("GET balances at 10 expenses", "GET", f"{base}/balances").get_json()
        measure("DELETE expense with 101 comments (batched)", "DELETE",
                f"{base}/expenses/{eid}", expect=204)

        big_id, big_ids = _group(client, headers)
        _seed_expenses(big_id, big_ids, LARGE_GROUP)
        big = measure(f"GET balances at {LARGE_GROUP:,} expenses", "GET",
                      f"/groups/{big_id}/balances").get_json()
        nets = {row["net"] for row in big["balances"]}
        print(f"  (5,000-expense group nets {sorted(nets)}, revision {big['revision']}; "
              f"10-expense group revision {small['revision']})")

        # Currencies (docs/currencies.md): a converted create costs what a plain one does
        # (the rate is the client's, or the embedded ECB history's for an old enough date),
        # and balances with kept rows in three currencies stay the same calls.
        fx_id, fx_ids = _group(client, headers)
        fx = f"/groups/{fx_id}"
        client.post(f"{fx}/expenses", json=_body(fx_ids), headers=headers)
        measure("POST expense, plain EUR", "POST", f"{fx}/expenses", _body(fx_ids), 201)
        measure("POST expense, USD at a client rate", "POST", f"{fx}/expenses",
                {**_body(fx_ids), "currency": "USD", "exchangeRate": "0.9"}, 201)
        measure("POST expense, USD at the ECB rate (2025)", "POST", f"{fx}/expenses",
                {**_body(fx_ids), "currency": "USD", "exchangeRate": "auto",
                 "date": "2025-06-02"}, 201)
        for currency in ("USD", "JPY", "GBP"):
            client.post(f"{fx}/expenses", json={**_body(fx_ids), "currency": currency},
                        headers=headers)
        three = measure("GET balances, EUR + 3 kept currencies", "GET",
                        f"{fx}/balances").get_json()
        print(f"  (sections: {[s['currency'] for s in three['otherCurrencies']]})")


def solver_costs() -> None:
    from app.money.settle import greedy_plan, settle_up
    from bench.settle_bench import best_time, random_nets

    rng = random.Random(2026)
    print()
    print("settle-up: time (best of 5) and payments, balances in multiples of 500")
    print(f"  {'participants':>12} {'settle_up ms':>13} {'payments':>9} {'greedy ms':>10} "
          f"{'greedy payments':>16}")
    for n in (10, 20, 1000):
        nets = random_nets(rng, n, True)
        ms, plan = best_time(settle_up, nets)
        greedy_ms, greedy = best_time(greedy_plan, nets)
        print(f"  {n:>12} {ms:>13.2f} {len(plan):>9} {greedy_ms:>10.2f} {len(greedy):>16}")


if __name__ == "__main__":
    request_costs()
    solver_costs()
