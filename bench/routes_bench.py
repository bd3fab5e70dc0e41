"""DynamoDB calls per request for the routes the other benches don't cover:
`.venv/bin/python bench/routes_bench.py` from the root.

Notifications (history, read marks, preferences, mutes, devices, the Web Push key), recurring
templates (create, list, get, patch, delete) and friends (request, accept, list, remove), each
measured once warm through the Flask test client on moto. A warm request's calls include the
caller's identity lookup only when the authenticator's cache misses (it does not here), and
always one GetItem of the caller's profile (a deleted account is refused on every instance)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls  # noqa: E402


def measure(rows: list, label: str, call) -> dict:
    call()  # warm: identity cache, lazily built schemas
    with count_dynamodb_calls() as counter:
        reply = call()
    assert reply.status_code < 400, (label, reply.status_code, reply.get_data(as_text=True))
    rows.append((label, counter))
    return reply.get_json(silent=True) or {}


def once(rows: list, label: str, call) -> dict:
    """For requests that can't run twice (a create, an accept): counted on their only run."""
    with count_dynamodb_calls() as counter:
        reply = call()
    assert reply.status_code < 400, (label, reply.status_code, reply.get_data(as_text=True))
    rows.append((label, counter))
    return reply.get_json(silent=True) or {}


def main() -> None:
    rows: list = []
    with bench_app() as (client, sign_in):
        ada, ada_id = sign_in("ada@example.com")
        bob, bob_id = sign_in("bob@example.com")
        group = client.post("/groups", json={"name": "Bench", "currency": "EUR"},
                            headers=ada).get_json()
        gid, pid = group["groupId"], group["myParticipantId"]
        base = f"/groups/{gid}"

        measure(rows, "GET /notifications", lambda: client.get("/notifications", headers=ada))
        measure(rows, "POST /notifications/read {all}",
                lambda: client.post("/notifications/read", json={"all": True}, headers=ada))
        measure(rows, "GET /notifications/preferences",
                lambda: client.get("/notifications/preferences", headers=ada))
        measure(rows, "PATCH /notifications/preferences",
                lambda: client.patch("/notifications/preferences",
                                     json={"types": {"EXPENSE_ADDED": False}}, headers=ada))
        measure(rows, "PUT /notifications/mutes/{groupId}",
                lambda: client.put(f"/notifications/mutes/{gid}", headers=ada))
        measure(rows, "DELETE /notifications/mutes/{groupId}",
                lambda: client.delete(f"/notifications/mutes/{gid}", headers=ada))
        device = measure(rows, "POST /notifications/devices",
                         lambda: client.post("/notifications/devices", headers=ada,
                                             json={"platform": "IOS", "token": "ada-phone"}))
        once(rows, "DELETE /notifications/devices/{deviceId}",
             lambda: client.delete(f"/notifications/devices/{device['deviceId']}", headers=ada))

        body = {"description": "Rent", "payments": [{"participantId": pid, "amount": 1000}],
                "amount": 1000, "splitMode": "EQUAL", "splits": [{"participantId": pid}],
                "frequency": "MONTHLY", "startDate": "2026-01-31"}
        made = once(rows, "POST /groups/{id}/recurring",
                    lambda: client.post(f"{base}/recurring", json=body, headers=ada))
        one = f"{base}/recurring/{made['recurringId']}"
        measure(rows, "GET /groups/{id}/recurring", lambda: client.get(f"{base}/recurring",
                                                                      headers=ada))
        measure(rows, "GET /groups/{id}/recurring/{rid}", lambda: client.get(one, headers=ada))
        once(rows, "PATCH /groups/{id}/recurring/{rid} (pause)",
             lambda: client.patch(one, json={"paused": True, "updatedAt": made["updatedAt"]},
                                  headers=ada))
        once(rows, "DELETE /groups/{id}/recurring/{rid}", lambda: client.delete(one, headers=ada))

        once(rows, "POST /people/me/friends", lambda: client.post(
            "/people/me/friends", json={"userId": bob_id}, headers=ada))
        once(rows, "POST /people/me/friends/{id}/accept", lambda: client.post(
            f"/people/me/friends/{ada_id}/accept", headers=bob))
        measure(rows, "GET /people/me/friends", lambda: client.get("/people/me/friends",
                                                                   headers=ada))
        once(rows, "DELETE /people/me/friends/{id}", lambda: client.delete(
            f"/people/me/friends/{bob_id}", headers=ada))

    width = max(len(label) for label, _ in rows)
    print(f"{'route':<{width}} | DynamoDB calls (warm)")
    for label, counter in rows:
        print(f"{label:<{width}} | {counter}")


if __name__ == "__main__":
    main()
