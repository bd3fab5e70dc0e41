"""People benchmark: `.venv/bin/python bench/people_bench.py` from the repo root.

Prints the DynamoDB calls one request makes (after a warm-up request, as in a warm Lambda)
for a directory search with 1 and with 40 discoverable users sharing the prefix (one index
Query plus one BatchGetItem either way), and for accepting a direct invitation (the reads
that pin the invitation and the guest slot, then one TransactWrite).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls

SEARCH_SIZES = (1, 40)


def make_person(client, sign_in, email: str, handle: str, name: str):
    headers, user_id = sign_in(email)
    client.patch("/users/me", json={"displayName": name}, headers=headers)
    client.put("/people/me/handle", json={"handle": handle, "discoverable": True},
               headers=headers)
    return headers, user_id


def search_calls(client, sign_in, users: int):
    for index in range(users):
        make_person(client, sign_in, f"s{users}-{index}@example.com", f"s{users}_{index}",
                    f"Zoë {users} {index}")
    caller, _ = sign_in(f"caller{users}@example.com")
    client.get("/people/search", query_string={"q": "zz"}, headers=caller)  # warm-up
    with count_dynamodb_calls() as calls:
        reply = client.get("/people/search", query_string={"q": f"zoe {users} "}, headers=caller)
    assert reply.status_code == 200 and len(reply.get_json()["items"]) == min(users, 25)
    return calls


def accept_calls(client, sign_in):
    owner, _ = sign_in("owner@example.com")
    gid = client.post("/groups", json={"name": "Trip", "currency": "EUR"},
                      headers=owner).get_json()["groupId"]
    guest = client.post(f"/groups/{gid}/participants", json={"displayName": "Gus"},
                        headers=owner).get_json()["participantId"]
    invitee, invitee_id = make_person(client, sign_in, "fay@example.com", "fay_f", "Fay")
    reply = client.post(f"/groups/{gid}/invitations", headers=owner,
                        json={"userId": invitee_id, "role": "MEMBER", "participantId": guest})
    assert reply.status_code == 201, reply.get_json()
    client.get("/people/me/invitations", headers=invitee)  # warm-up
    with count_dynamodb_calls() as calls:
        reply = client.post(f"/people/me/invitations/{gid}/accept", headers=invitee)
    assert reply.status_code == 200, reply.get_json()
    return calls


def main() -> None:
    with bench_app() as (client, sign_in):
        rows = [(f"GET /people/search, {n} matching user{'s' if n > 1 else ''}",
                 search_calls(client, sign_in, n)) for n in SEARCH_SIZES]
        rows.append(("POST /people/me/invitations/{groupId}/accept", accept_calls(client, sign_in)))
    width = max(len(name) for name, _ in rows)
    for name, calls in rows:
        print(f"{name:<{width}}  DynamoDB calls: {calls}")


if __name__ == "__main__":
    main()
