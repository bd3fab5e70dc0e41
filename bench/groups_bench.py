"""Membership benchmark: `.venv/bin/python bench/groups_bench.py` from the repo root.

Prints the DynamoDB calls one request makes (after a warm-up request, so token and table
metadata caches are filled, as in a warm Lambda) for the home screen at 1 and at 50 groups
(one index Query, then a BatchGetItem of the page's heads and balance rows that also reads the
caller's profile: 2 calls up to 49 groups, 3 at 50, where those 101 keys need a second batch)
and for approving a NEW and a TAKEOVER join request.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls, report

HOME_SIZES = (1, 50)


def create_groups(client, headers, count: int) -> list:
    return [client.post("/groups", json={"name": f"G{i}", "currency": "EUR"},
                        headers=headers).get_json()["groupId"] for i in range(count)]


def home_calls(client, sign_in, groups: int):
    headers, _ = sign_in(f"home{groups}@example.com")
    create_groups(client, headers, groups)
    client.get("/users/me/groups?limit=100", headers=headers)  # warm-up
    with count_dynamodb_calls() as calls:
        reply = client.get("/users/me/groups?limit=100", headers=headers)
    assert reply.status_code == 200 and len(reply.get_json()["items"]) == groups
    return calls


def approve_calls(client, sign_in, mode: str):
    owner, _ = sign_in(f"owner-{mode.lower()}@example.com")
    gid = create_groups(client, owner, 1)[0]
    code = client.get(f"/groups/{gid}/invite", headers=owner).get_json()["code"]
    body = {"code": code, "mode": mode}
    if mode == "TAKEOVER":
        body["targetParticipantId"] = client.post(
            f"/groups/{gid}/participants", json={"displayName": "Gus"},
            headers=owner).get_json()["participantId"]
    applicant, _ = sign_in(f"applicant-{mode.lower()}@example.com")
    request_id = client.post(f"/groups/{gid}/join-requests", json=body,
                             headers=applicant).get_json()["requestId"]
    client.get(f"/groups/{gid}", headers=owner)  # warm-up
    with count_dynamodb_calls() as calls:
        reply = client.post(f"/groups/{gid}/join-requests/{request_id}/approve",
                            json={"role": "MEMBER"}, headers=owner)
    assert reply.status_code == 200, reply.get_json()
    return calls


def measure(home_sizes=HOME_SIZES) -> list:
    """(label, calls) of the home screen at each size, then of the two approvals."""
    with bench_app() as (client, sign_in):
        rows = [(f"GET /users/me/groups, {n} group{'s' if n > 1 else ''}",
                 home_calls(client, sign_in, n)) for n in home_sizes]
        rows += [(f"POST .../join-requests/{{id}}/approve ({mode})",
                  approve_calls(client, sign_in, mode)) for mode in ("NEW", "TAKEOVER")]
    return rows


def report_rows(measured: list, home_sizes=HOME_SIZES) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() counted."""
    homes, approvals = measured[:len(home_sizes)], measured[len(home_sizes):]
    return [
        ("home_calls", "GET /users/me/groups (home), DynamoDB calls at "
         + " / ".join(str(n) for n in home_sizes) + " groups",
         " / ".join(str(calls.total) for _, calls in homes) + f" ({homes[-1][1]} at "
         f"{home_sizes[-1]})"),
        ("approve_calls", "approve a join request, DynamoDB calls: NEW / TAKEOVER",
         " / ".join(str(calls.total) for _, calls in approvals) + f" (NEW: {approvals[0][1]})"),
    ]


def main() -> None:
    measured = measure()
    width = max(len(label) for label, _ in measured)
    print(f"{'request':<{width}}  calls  by operation")
    for label, calls in measured:
        detail = ", ".join(f"{name} {count}" for name, count in sorted(calls.calls.items()))
        print(f"{label:<{width}}  {calls.total:>5}  {detail}")
    report("groups_bench", report_rows(measured))

if __name__ == "__main__":
    main()
