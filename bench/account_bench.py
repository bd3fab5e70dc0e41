"""DynamoDB calls to delete an account that is in N groups (DELETE /users/me).

Each group the user shares with another user costs a consistent head read, a roster Query,
a Query for the user's decided join requests and one TransactWrite (participant -> guest,
guard gone, counts); the rest is a fixed cost per account (mark, tokens, people,
notifications, MCP pointers, the partition sweeps, identities, profile). Also the hot-path
check: GET /users/me and GET /users/me/groups cost the same before and after the deletion
check was added (it rides on reads those requests already make).

Run: .venv/bin/python bench/account_bench.py"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls, report

SIZES = (1, 5, 20)
ROUTE_GROUPS = 5  # the account DELETE /users/me deletes through the route


def _account_in_groups(client, sign_in, tag: str, groups: int):
    """A user who joined ``groups`` groups of another user (each with one expense naming her)."""
    leaver, leaver_id = sign_in(f"leaver{tag}@example.com")
    owner, _ = sign_in(f"owner{tag}@example.com")
    for index in range(groups):
        group = client.post("/groups", headers=owner,
                            json={"name": f"G{index}", "currency": "EUR"}).get_json()
        gid = group["groupId"]
        code = client.get(f"/groups/{gid}/invite", headers=owner).get_json()["code"]
        request = client.post(f"/groups/{gid}/join-requests", headers=leaver,
                              json={"code": code, "mode": "NEW"}).get_json()
        joined = client.post(f"/groups/{gid}/join-requests/{request['requestId']}/approve",
                             headers=owner, json={"role": "MEMBER"}).get_json()
        pid = joined["participant"]["participantId"]
        added = client.post(f"/groups/{gid}/expenses", headers=leaver, json={
            "description": "Taxi", "date": "2026-11-20", "amount": 1000, "splitMode": "EQUAL",
            "payments": [{"participantId": pid, "amount": 1000}],
            "splits": [{"participantId": group["myParticipantId"], "value": 1},
                       {"participantId": pid, "value": 1}]})
        assert added.status_code == 201, added.get_json()
    return leaver, leaver_id


def measure(sizes=SIZES, through_route: bool = True) -> dict:
    """The deletion's calls at each size, the calls of GET /users/me and home just before the
    last deletion and, ``through_route``, the status DELETE /users/me answered."""
    from app.account import deletion

    results, statuses = {}, {"api": None}
    with bench_app() as (client, sign_in):
        for size in sizes:
            headers, user_id = _account_in_groups(client, sign_in, str(size), size)
            client.get("/users/me", headers=headers, buffered=True)  # identity cached
            with count_dynamodb_calls() as me:
                assert client.get("/users/me", headers=headers, buffered=True).status_code == 200
            with count_dynamodb_calls() as home:
                assert client.get("/users/me/groups", headers=headers,
                                  buffered=True).status_code == 200
            # The whole deletion, counted by the driver that DELETE /users/me starts within its
            # time budget and the queue worker resumes (unlimited here, so the count does
            # not depend on how loaded the machine is).
            with count_dynamodb_calls() as calls:
                deletion.delete_account(user_id)
            results[size] = calls
        # Through the route: 204 when every step finished within the request's budget, else
        # 202 and the queue worker finishes (docs/account-deletion.md; a loaded machine can
        # take 202). Either is right.
        if through_route:
            headers, _ = _account_in_groups(client, sign_in, "api", ROUTE_GROUPS)
            reply = client.delete("/users/me", headers=headers)
            assert reply.status_code in (202, 204), reply.get_json()
            statuses["api"] = reply.status_code
    return {"deletion": results, "api": statuses["api"], "me": me, "home": home}


def report_rows(measured: dict) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() counted."""
    results = measured["deletion"]
    sizes = list(results)
    per_group = (results[sizes[-1]].total - results[sizes[0]].total) / (sizes[-1] - sizes[0])
    return [(
        "delete_account_calls",
        "account deletion (DELETE /users/me, finished by the queue worker when the request's "
        "budget runs out), DynamoDB calls in all for an account in "
        + " / ".join(str(size) for size in sizes) + " groups shared with another user (one "
        "expense each)",
        " / ".join(str(results[size].total) for size in sizes)
        + f": {per_group:.1f} per additional group, {results[sizes[0]].total - per_group:.0f} "
        "fixed")]


def main() -> None:
    measured = measure()
    results, me, home = measured["deletion"], measured["me"], measured["home"]
    for size, calls in results.items():
        print(f"account deletion in {size:>2} groups: {calls}")
    print(f"DELETE /users/me in {ROUTE_GROUPS} groups answered {measured['api']}")
    print(f"GET /users/me (identity cached): {me}; GET /users/me/groups: {home}")
    report("account_bench", report_rows(measured))


if __name__ == "__main__":
    main()
