"""Cross-group reads: `.venv/bin/python bench/people_balances_bench.py` from the repo root.

On the embedded DynamoDB endpoint, billed by the DynamoDB call meter (bench/dynamo_meter.py):
a user in 1 and in 50 groups, each shared with another account (its own, so 50 people at 50
groups), and in 150 groups shared in turn with 10 accounts, each group holding one expense
between the two. Prints, after a warm-up request (a warm Lambda), the DynamoDB calls and
read units of GET /users/me/people, of a first page of GET /users/me/expenses and of
GET /users/me/groups (home); what an expense write pays for the balance row's ``Users`` map
(no index row is written: WRU added per expense write by an index row is 0); and the write
units of the writes that keep the balance row's copy of the head (rename, currency change,
delete) and of a 6-way expense, on that row.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dynamo_meter import Meter, item_size
from bench.support import embedded_api, report

# (groups, other accounts: None for one of its own per group)
GROUP_COUNTS = ((1, None), (50, None), (150, 10))


def _setup(client, sign_in, groups: int, tag: str, accounts=None):
    from tests.ledger.helpers import join_directly

    me_h, _ = sign_in(f"me-{tag}@example.com")
    shared = [sign_in(f"o{index}-{tag}@example.com")[1] for index in range(accounts or 0)]
    for index in range(groups):
        other = shared[index % accounts] if accounts else \
            sign_in(f"o{index}-{tag}@example.com")[1]
        group = client.post("/groups", json={"name": f"G{index}", "currency": "EUR"},
                            headers=me_h).get_json()
        their = join_directly(group["groupId"], other, "MEMBER", f"O{index}")
        reply = client.post(f"/groups/{group['groupId']}/expenses", headers=me_h, json={
            "description": "Dinner", "amount": 1000, "splitMode": "EQUAL",
            "payments": [{"participantId": group["myParticipantId"], "amount": 1000}],
            "splits": [{"participantId": group["myParticipantId"]}, {"participantId": their}]})
        assert reply.status_code == 201, reply.get_json()
    return me_h


def _settle(endpoint: str) -> None:
    """Let the groups stream reach the cross-group projection (/users/me/expenses reads it),
    through the poller local mode runs."""
    from app.insight.project_stream import project_batch
    from app.local.stream_poller import StreamPoller, realtime_admitted
    from models.groups import GroupItem

    poller = StreamPoller(endpoint, GroupItem.Meta.table_name,
                          lambda event, _: project_batch(event["Records"]),
                          admit=realtime_admitted)
    dynamodb, streams = poller._clients()
    arn = dynamodb.describe_table(TableName=poller.table_name)["Table"]["LatestStreamArn"]
    iterators: dict = {}
    while poller.poll_once(iterators, streams, arn):
        pass


def _measure(client, meter, headers, path: str, expect: int):
    client.get(path, headers=headers)  # warm-up
    # The identity cache keeps 60 s, which a warm-up of 150 Queries on the embedded engine
    # can outlast: a signed-in client's next request finds its identity cached.
    client.get("/users/me", headers=headers)
    with meter.block() as bill:
        reply = client.get(path, headers=headers)
    assert reply.status_code == 200, reply.get_json()
    assert len(reply.get_json()["items"]) == expect, reply.get_json()
    return bill


def _six(client, sign_in, tag: str):
    """(owner headers, group, participant ids) of a group of 6 accounts."""
    from tests.ledger.helpers import join_directly

    owner, _ = sign_in(f"{tag}-owner@example.com")
    group = client.post("/groups", json={"name": "Six", "currency": "EUR"},
                        headers=owner).get_json()
    pids = [group["myParticipantId"]] + [
        join_directly(group["groupId"], sign_in(f"{tag}{index}@example.com")[1], "MEMBER")
        for index in range(5)]
    return owner, group, pids


def _users_map_bytes(client, sign_in) -> tuple:
    """(balance row bytes, of which the Users set, of which the head copy) for a group of 6
    accounts named "Six"."""
    from models.groups import Balance

    _, group, _ = _six(client, sign_in, "map")
    raw = Balance.fetch_raw(group["groupId"])
    copy = {name: raw[name] for name in ("Name", "Currency", "Status") if name in raw}
    return item_size(raw), item_size({"Users": raw["Users"]}), item_size(copy)


def _write_units(client, meter, sign_in) -> dict:
    """WRU of the writes on a 6-account group's balance row: a 6-way expense, a rename, a
    currency change (no money yet) and a DELETE of the group (tombstone and sweep)."""
    def billed(send, status):
        with meter.block() as bill:
            reply = send()
        assert reply.status_code == status, reply.get_json()
        return bill.wru

    owner, group, pids = _six(client, sign_in, "wru")
    path = f"/groups/{group['groupId']}"
    units = {"currency": billed(lambda: client.patch(path, headers=owner,
                                                     json={"currency": "USD"}), 200),
             "rename": billed(lambda: client.patch(path, headers=owner,
                                                   json={"name": "Sixes"}), 200)}
    units["expense"] = billed(lambda: client.post(f"{path}/expenses", headers=owner, json={
        "description": "Dinner", "amount": 6000, "splitMode": "EQUAL",
        "payments": [{"participantId": pids[0], "amount": 6000}],
        "splits": [{"participantId": pid} for pid in pids]}), 201)
    units["delete"] = billed(lambda: client.delete(path, headers=owner), 204)
    return units


def measure(group_counts=GROUP_COUNTS) -> dict:
    """The bills of the three cross-group reads at each of ``group_counts``, the balance
    row's bytes and the write units of the writes on it."""
    import boto3

    with embedded_api() as (client, sign_in, endpoint):
        meter = Meter(boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1"))
        people, listing, home = [], [], []
        for groups, accounts in group_counts:
            headers = _setup(client, sign_in, groups, str(groups), accounts)
            _settle(endpoint)
            meter.hook_models()
            people.append(_measure(client, meter, headers, "/users/me/people",
                                   accounts or groups))
            listing.append(_measure(client, meter, headers, "/users/me/expenses?limit=25",
                                    min(groups, 25)))
            home.append(_measure(client, meter, headers, "/users/me/groups?limit=50",
                                 min(groups, 50)))
        row_bytes, map_bytes, copy_bytes = _users_map_bytes(client, sign_in)
        units = _write_units(client, meter, sign_in)
    return {"group_counts": tuple(group_counts), "people": people, "listing": listing,
            "home": home, "row_bytes": row_bytes, "map_bytes": map_bytes,
            "copy_bytes": copy_bytes, "units": units}


def _points(group_counts) -> str:
    """"at 1 / 50 groups (one other account each) / 150 groups (10 other accounts)"."""
    parts, run = [], []
    for index, (groups, accounts) in enumerate(group_counts):
        run.append(str(groups))
        following = group_counts[index + 1][1] if index + 1 < len(group_counts) else "end"
        if following != accounts:
            kind = f"{accounts} other accounts" if accounts else "one other account each"
            parts.append(" / ".join(run) + f" groups ({kind})")
            run = []
    return "at " + " / ".join(parts)


def report_rows(measured: dict) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() measured."""
    group_counts = measured["group_counts"]
    points, last = _points(group_counts), group_counts[-1][0]
    units = measured["units"]

    def calls(bills, note):
        return (" / ".join(str(b.total_calls) for b in bills) + f" ({bills[-1].calls_text()}"
                f" at {last}{note}; RRU " + " / ".join(f"{b.rru:g}" for b in bills) + ")")

    return [
        ("people_calls", f"GET /users/me/people, DynamoDB calls {points}",
         calls(measured["people"], "")),
        ("my_expenses_calls", "GET /users/me/expenses first page (limit 25), DynamoDB "
         f"calls {points}", calls(measured["listing"], "; one projection Query a page, any number of groups")),
        ("home_calls", f"GET /users/me/groups?limit=50 (home) first page, DynamoDB calls {points}",
         calls(measured["home"], "; a page holds 50 groups")),
        ("users_map_bytes", "WRU added per expense write: index rows / the balance "
         "row's Users set (6 accounts)",
         f"0 (no index row) / {measured['map_bytes']} B of a {measured['row_bytes']} B balance "
         f"row, {(measured['map_bytes'] - 5) // 6} B per account: each money write's balance "
         "update costs 2 more WRU only once the row passes 1 KB"),
        ("head_copy_wru", "The balance row's copy of the head (group \"Six\", 6 "
         "accounts): its bytes; WRU of a 6-way POST expense / rename / currency change "
         "/ DELETE group",
         f"{measured['copy_bytes']} B of a {measured['row_bytes']} B row; "
         f"{units['expense']:g} / {units['rename']:g} / {units['currency']:g} / "
         f"{units['delete']:g} WRU"),
    ]


def main() -> None:
    report("people_balances_bench", report_rows(measure()))

if __name__ == "__main__":
    main()
