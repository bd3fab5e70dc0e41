"""Cross-group reads: `.venv/bin/python bench/people_balances_bench.py` from the repo root.

On the embedded DynamoDB endpoint, billed by the DynamoDB call meter (bench/dynamo_meter.py):
a user in 1 and in 50 groups, each shared with another account (its own, so 50 people at 50
groups) and holding one expense between them. Prints, after a warm-up request (a warm
Lambda), the DynamoDB calls and read units of GET /users/me/people and of a first page of
GET /users/me/expenses, and what an expense write pays for the balance row's ``Users`` map
(no index row is written: WRU added per expense write by an index row is 0).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dynamo_meter import Meter, item_size
from bench.support import report

GROUP_COUNTS = (1, 50)


def _setup(client, sign_in, groups: int, tag: str):
    from tests.ledger.helpers import join_directly

    me_h, _ = sign_in(f"me-{tag}@example.com")
    for index in range(groups):
        _, other = sign_in(f"o{index}-{tag}@example.com")
        group = client.post("/groups", json={"name": f"G{index}", "currency": "EUR"},
                            headers=me_h).get_json()
        their = join_directly(group["groupId"], other, "MEMBER", f"O{index}")
        reply = client.post(f"/groups/{group['groupId']}/expenses", headers=me_h, json={
            "description": "Dinner", "amount": 1000, "splitMode": "EQUAL",
            "payments": [{"participantId": group["myParticipantId"], "amount": 1000}],
            "splits": [{"participantId": group["myParticipantId"]}, {"participantId": their}]})
        assert reply.status_code == 201, reply.get_json()
    return me_h


def _measure(client, meter, headers, path: str, expect: int):
    client.get(path, headers=headers)  # warm-up
    with meter.block() as bill:
        reply = client.get(path, headers=headers)
    assert reply.status_code == 200, reply.get_json()
    assert len(reply.get_json()["items"]) == expect, reply.get_json()
    return bill


def _users_map_bytes(client, sign_in) -> tuple:
    """(balance row bytes, of which the Users set) for a group of 6 accounts."""
    from models.groups import Balance
    from tests.ledger.helpers import join_directly

    owner, _ = sign_in("map-owner@example.com")
    group = client.post("/groups", json={"name": "Six", "currency": "EUR"},
                        headers=owner).get_json()
    for index in range(5):
        join_directly(group["groupId"], sign_in(f"map{index}@example.com")[1], "MEMBER")
    raw = Balance.fetch_raw(group["groupId"])
    return item_size(raw), item_size({"Users": raw["Users"]})


def main() -> None:
    import boto3

    import models
    from app import create_app
    from app.config import Settings
    from app.local.dynamodb import EmbeddedDynamoDB

    rows = []
    with tempfile.TemporaryDirectory() as data_dir:
        db = EmbeddedDynamoDB(port=0, stage="bench", data_dir=None).start()
        try:
            models.configure(stage="bench", region="us-east-1", host=db.endpoint)
            app = create_app(Settings(stage="bench", local_mode=True, data_dir=data_dir,
                                      dynamodb_endpoint=db.endpoint, cursor_secret=b"bench"))
            client = app.test_client()

            def sign_in(email: str):
                data = client.post("/dev/tokens", json={"email": email}).get_json()
                return {"Authorization": f"Bearer {data['accessToken']}"}, data["userId"]

            meter = Meter(boto3.client("dynamodb", endpoint_url=db.endpoint,
                                       region_name="us-east-1"))
            people, listing = [], []
            for groups in GROUP_COUNTS:
                headers = _setup(client, sign_in, groups, str(groups))
                meter.hook_models()
                people.append(_measure(client, meter, headers, "/users/me/people", groups))
                listing.append(_measure(client, meter, headers, "/users/me/expenses?limit=25",
                                        min(groups, 25)))
            row_bytes, map_bytes = _users_map_bytes(client, sign_in)
        finally:
            db.stop()
    rows.append(("people_calls", "GET /users/me/people, DynamoDB calls at 1 / 50 groups "
                 "(one other account per group)",
                 " / ".join(str(b.total_calls) for b in people)
                 + f" ({people[-1].calls_text()} at 50; RRU "
                 + " / ".join(f"{b.rru:g}" for b in people) + ")"))
    rows.append(("my_expenses_calls", "GET /users/me/expenses first page (limit 25), DynamoDB "
                 "calls at 1 / 50 groups",
                 " / ".join(str(b.total_calls) for b in listing)
                 + " (one Query per group; RRU "
                 + " / ".join(f"{b.rru:g}" for b in listing) + ")"))
    rows.append(("users_map_bytes", "WRU added per expense write: index rows / the balance "
                 "row's Users set (6 accounts)",
                 f"0 (no index row) / {map_bytes} B of a {row_bytes} B balance row, "
                 f"{(map_bytes - 5) // 6} B per account: each money write's balance update "
                 f"costs 2 more WRU only once the row passes 1 KB"))
    report("people_balances_bench", rows)


if __name__ == "__main__":
    main()
