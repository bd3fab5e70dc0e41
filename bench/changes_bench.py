"""Change-log benchmark: `.venv/bin/python bench/changes_bench.py` from the repo root.

Prints, on a moto-backed local app: DynamoDB calls per GET /changes page (20 changes; none
new; a reset), per conditional group read answered 304 and per activity page; then, for
each money write, the items of its TransactWriteItems and their write request units under
DynamoDB's transactional price (2 WRU per started KB of each item written, and a
ConditionCheck is billed as a transactional write of the item it checks: 2 WRU per started
KB, shown apart), and the change log's part: its CHANGE row and the head's Revision update
(which, in expense and settlement writes, replaces the head's ConditionCheck).
bench/cost_bench.py meters every call of the API this way, indexes and reads too.
"""
from __future__ import annotations

import contextlib
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls


def _size(value) -> int:
    """An attribute value's size as DynamoDB bills it (close enough for whole KBs)."""
    (kind, inner), = value.items()
    if kind == "S":
        return len(inner.encode())
    if kind == "N":
        return len(inner.lstrip("-").replace(".", "")) // 2 + 2
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return 3 + sum(len(k.encode()) + _size(v) for k, v in inner.items())
    if kind == "L":
        return 3 + sum(1 + _size(v) for v in inner)
    return sum(len(str(x)) for x in inner)  # sets


def _item_size(item: dict) -> int:
    return sum(len(name.encode()) + _size(value) for name, value in item.items())


@contextlib.contextmanager
def transactions():
    """The TransactWriteItems sent inside the block (their parameters)."""
    from tests.support import aws_calls

    with aws_calls.requests_made() as made:
        sent: list = []
        try:
            yield sent
        finally:
            sent.extend(params for operation, params in made
                        if operation == "TransactWriteItems")


def _costs(params: dict) -> dict:
    """Items and units of one transaction, the change log's share apart."""
    import boto3

    db = boto3.client("dynamodb", region_name="us-east-1")
    out = {"items": 0, "wru": 0, "check_wru": 0, "log_wru": 0, "log_items": 0}
    for entry in params["TransactItems"]:
        (op, body), = entry.items()
        out["items"] += 1
        if op == "Put":
            key, size = body["Item"], _item_size(body["Item"])
        else:  # an update or a check is billed on the item as stored (read after the write)
            key = body["Key"]
            stored = db.get_item(TableName=body["TableName"], Key=key).get("Item")
            size = _item_size(stored or key)
        units = 2 * math.ceil(max(size, 1) / 1024)
        out["wru"] += units
        if op == "ConditionCheck":  # billed as a transactional write of the checked item
            out["check_wru"] += units
            continue
        sk = key.get("SK", {}).get("S", "")
        if sk.startswith("CHANGE#") or (sk == "META" and op == "Update" and "Revision" in
                                        body.get("ExpressionAttributeNames", {}).values()):
            out["log_wru"] += units
            out["log_items"] += 1
    return out


def main() -> None:
    with bench_app() as (client, sign_in):
        headers, _ = sign_in("bench@example.com")
        group = client.post("/groups", json={"name": "Bench", "currency": "EUR"},
                            headers=headers).get_json()
        gid, ids = group["groupId"], [group["myParticipantId"]]
        base = f"/groups/{gid}"
        for index in range(2):
            ids.append(client.post(f"{base}/participants", json={"displayName": f"G{index}"},
                                   headers=headers).get_json()["participantId"])

        def body(amount=900, description="Dinner"):
            return {"description": description, "date": "2026-11-28", "amount": amount,
                    "payments": [{"participantId": ids[0], "amount": amount}],
                    "splitMode": "EQUAL", "splits": [{"participantId": p} for p in ids]}

        def measure(label, path, query=None, extra=None, expect=200):
            with count_dynamodb_calls() as calls:
                reply = client.get(path, query_string=query or {},
                                   headers={**headers, **(extra or {})})
            assert reply.status_code == expect, (label, reply.status_code)
            print(f"  {label:<52} {calls}")
            return reply

        def write(label, method, path, payload=None, expect=201):
            with transactions() as sent:
                reply = client.open(path, method=method, json=payload, headers=headers)
            assert reply.status_code == expect, (label, reply.status_code, reply.get_json())
            costs = [_costs(params) for params in sent]
            total = {k: sum(c[k] for c in costs) for k in costs[0]}
            print(f"  {label:<30} {total['items']:>3} items {total['wru']:>3} WRU "
                  f"(checks {total['check_wru']:>3}); of which the change log's row and head bump "
                  f"{total['log_wru']} WRU")
            return reply

        print("Writes: TransactWriteItems items and units (transactional prices)")
        first = write("POST expense (3 participants)", "POST", f"{base}/expenses",
                      body()).get_json()
        write("PATCH expense (description)", "PATCH", f"{base}/expenses/{first['expenseId']}",
              {"version": 1, "description": "Lunch"}, 200)
        write("PATCH expense (amount)", "PATCH", f"{base}/expenses/{first['expenseId']}",
              {"version": 2, **body(1200)}, 200)
        write("POST settlement", "POST", f"{base}/settlements",
              {"payerId": ids[1], "payeeId": ids[0], "amount": 300})
        write("DELETE expense", "DELETE", f"{base}/expenses/{first['expenseId']}", expect=204)
        since = client.get(f"{base}/changes", query_string={"since": 10 ** 9},
                           headers=headers).get_json()["revision"]
        for index in range(20):
            client.post(f"{base}/expenses", json=body(100 + index), headers=headers)

        print("Reads: DynamoDB calls per request")
        page = measure("GET /changes (20 changes, one page)", f"{base}/changes",
                       {"since": since, "limit": 100}).get_json()
        assert len(page["changes"]) == 20 and not page["hasMore"]
        measure("GET /changes (nothing new)", f"{base}/changes", {"since": page["revision"]})
        measure("GET /changes (since 0 of a new group: from the start)", f"{base}/changes",
                {"since": 0})
        measure("GET /activity (newest 50)", f"{base}/activity", {"limit": 50})
        for label, path in (("GET group", base), ("GET balances", f"{base}/balances"),
                            ("GET expenses", f"{base}/expenses"),
                            ("GET participants", f"{base}/participants")):
            tag = measure(f"{label} 200", path).headers["ETag"]  # each read's own tag: it
            measure(f"{label} If-None-Match current -> 304", path,  # hashes the path too
                    extra={"If-None-Match": tag}, expect=304)


if __name__ == "__main__":
    main()
