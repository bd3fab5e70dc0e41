"""DynamoDB calls to delete an account that is in N groups (DELETE /users/me).

Each group the user shares with another user costs a consistent head read, a roster Query,
a Query for the user's decided join requests and one TransactWrite (participant -> guest,
guard gone, counts); the rest is a fixed cost per account (mark, tokens, people,
notifications, MCP pointers, the partition sweeps, identities, profile). Also the hot-path
check: GET /users/me and GET /users/me/groups cost the same before and after the deletion
check was added (it rides on reads those requests already make).

Run: .venv/bin/python bench/account_bench.py"""
from __future__ import annotations

from support import bench_app, count_dynamodb_calls, report

SIZES = (1, 5, 20)


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


def main() -> None:
    from app.services.account import deletion

    results, statuses = {}, {}
    with bench_app() as (client, sign_in):
        for size in SIZES:
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
        headers, _ = _account_in_groups(client, sign_in, "api", SIZES[1])
        reply = client.delete("/users/me", headers=headers)
        assert reply.status_code in (202, 204), reply.get_json()
        statuses["api"] = reply.status_code
    for size, calls in results.items():
        print(f"account deletion in {size:>2} groups: {calls}")
    print(f"DELETE /users/me in {SIZES[1]} groups answered {statuses['api']}")
    print(f"GET /users/me (identity cached): {me}; GET /users/me/groups: {home}")
    per_group = (results[SIZES[-1]].total - results[SIZES[0]].total) / (SIZES[-1] - SIZES[0])
    report("account_bench", [(
        "delete_account_calls",
        "account deletion (DELETE /users/me, finished by the queue worker when the request's "
        "budget runs out), DynamoDB calls in all for an account in 1 / 5 / 20 groups shared "
        "with another user (one expense each)",
        " / ".join(str(results[size].total) for size in SIZES)
        + f": {per_group:.1f} per additional group, {results[SIZES[0]].total - per_group:.0f} "
        "fixed")])


if __name__ == "__main__":
    main()
