"""DynamoDB calls per request for the routes the other benches don't cover:
`.venv/bin/python bench/routes_bench.py` from the root.

Notifications (history, read marks, preferences, mutes, devices, the Web Push key), recurring
templates (create, list, get, patch, delete), friends (request, accept, list, remove) and every
other view that authorizes the caller in a group (``group_views``), each measured once warm
through the Flask test client on moto (or on its only run, for a request that can't repeat). A warm request's calls include the
caller's identity lookup only when the authenticator's cache misses (it does not here), and
always one GetItem of the caller's profile (a deleted account is refused on every instance)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls, report


def warm(rows: list, label: str, call) -> dict:
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


def group_views(rows: list, client, sign_in) -> None:
    """The views that authorize the caller in a group: one BatchGetItem each (with the rows a
    use case needs prefetched in it), and one for an idempotent create's guard and view."""
    owner, _ = sign_in("owner@example.com")
    guest_user, _ = sign_in("gwen@example.com")
    gid = client.post("/groups", json={"name": "Views", "currency": "EUR"},
                      headers=owner).get_json()["groupId"]
    base = f"/groups/{gid}"
    me = client.get(base, headers=owner).get_json()["myParticipantId"]

    def guest(name: str) -> str:
        return client.post(f"{base}/participants", json={"displayName": name},
                           headers=owner).get_json()["participantId"]

    gus, tim = guest("Gus"), guest("Tim")
    warm(rows, "GET /groups/{id}", lambda: client.get(base, headers=owner))
    warm(rows, "PATCH /groups/{id}", lambda: client.patch(base, json={"name": "Views"},
                                                             headers=owner))
    warm(rows, "GET /groups/{id}/participants",
            lambda: client.get(f"{base}/participants", headers=owner))
    warm(rows, "PATCH /groups/{id}/participants/{pid}", lambda: client.patch(
        f"{base}/participants/{gus}", json={"displayName": "Gus"}, headers=owner))
    warm(rows, "GET /groups/{id}/invite", lambda: client.get(f"{base}/invite", headers=owner))
    warm(rows, "PATCH /groups/{id}/invite", lambda: client.patch(
        f"{base}/invite", json={"enabled": True}, headers=owner))
    code = warm(rows, "POST /groups/{id}/invite/rotate", lambda: client.post(
        f"{base}/invite/rotate", headers=owner))["code"]
    warm(rows, "GET /groups/{id}/join-requests",
            lambda: client.get(f"{base}/join-requests", headers=owner))
    request_id = client.post(f"{base}/join-requests", json={"code": code, "mode": "NEW"},
                             headers=guest_user).get_json()["requestId"]
    once(rows, "POST /groups/{id}/join-requests/{rid}/deny", lambda: client.post(
        f"{base}/join-requests/{request_id}/deny", headers=owner))
    request_id = client.post(f"{base}/join-requests", json={"code": code, "mode": "NEW"},
                             headers=guest_user).get_json()["requestId"]
    once(rows, "POST /groups/{id}/join-requests/{rid}/approve", lambda: client.post(
        f"{base}/join-requests/{request_id}/approve", json={"role": "MEMBER"}, headers=owner))
    warm(rows, "GET /groups/{id}/invitations",
            lambda: client.get(f"{base}/invitations", headers=owner))

    spend = {"description": "Taxi", "amount": 900, "splitMode": "EQUAL",
             "payments": [{"participantId": me, "amount": 900}],
             "splits": [{"participantId": me}, {"participantId": gus}]}
    expense = once(rows, "POST /groups/{id}/expenses (Idempotency-Key)", lambda: client.post(
        f"{base}/expenses", json=spend, headers={**owner, "Idempotency-Key": "views-1"}))
    one = f"{base}/expenses/{expense['expenseId']}"
    warm(rows, "GET /groups/{id}/expenses", lambda: client.get(f"{base}/expenses",
                                                                 headers=owner))
    warm(rows, "GET /groups/{id}/expenses/{eid}", lambda: client.get(one, headers=owner))
    once(rows, "PATCH /groups/{id}/expenses/{eid}", lambda: client.patch(
        one, json={"description": "Cab", "version": expense["version"]}, headers=owner))
    comment = client.post(f"{one}/comments", json={"body": "hi"}, headers=owner).get_json()
    warm(rows, "GET /groups/{id}/expenses/{eid}/comments",
            lambda: client.get(f"{one}/comments", headers=owner))
    warm(rows, "PATCH /groups/{id}/expenses/{eid}/comments/{cid}", lambda: client.patch(
        f"{one}/comments/{comment['commentId']}", json={"body": "hey"}, headers=owner))
    once(rows, "DELETE /groups/{id}/expenses/{eid}/comments/{cid}", lambda: client.delete(
        f"{one}/comments/{comment['commentId']}", headers=owner))
    settlement = client.post(f"{base}/settlements", headers=owner, json={
        "payerId": gus, "payeeId": me, "amount": 450}).get_json()
    paid = f"{base}/settlements/{settlement['settlementId']}"
    warm(rows, "GET /groups/{id}/settlements",
            lambda: client.get(f"{base}/settlements", headers=owner))
    warm(rows, "GET /groups/{id}/settlements/{sid}", lambda: client.get(paid, headers=owner))
    once(rows, "PATCH /groups/{id}/settlements/{sid}", lambda: client.patch(
        paid, json={"note": "cash", "version": settlement["version"]}, headers=owner))
    warm(rows, "GET /groups/{id}/balances", lambda: client.get(f"{base}/balances",
                                                                 headers=owner))
    warm(rows, "GET /groups/{id}/export?format=csv",
            lambda: client.get(f"{base}/export?format=csv", headers=owner))
    warm(rows, "GET /groups/{id}/export?format=json",
            lambda: client.get(f"{base}/export?format=json", headers=owner))
    once(rows, "DELETE /groups/{id}/settlements/{sid}", lambda: client.delete(paid,
                                                                              headers=owner))
    once(rows, "DELETE /groups/{id}/expenses/{eid}", lambda: client.delete(one, headers=owner))
    once(rows, "POST /groups/{id}/participants/{pid}/transfer", lambda: client.post(
        f"{base}/participants/{gus}/transfer", json={"targetParticipantId": tim},
        headers=owner))
    once(rows, "DELETE /groups/{id}/participants/{pid}", lambda: client.delete(
        f"{base}/participants/{tim}", headers=owner))
    once(rows, "POST /groups/{id}/leave", lambda: client.post(f"{base}/leave",
                                                              headers=guest_user))
    once(rows, "DELETE /groups/{id}", lambda: client.delete(base, headers=owner))


# The routes a share-link session and a member both call, measured for each (link_sessions).
LINK_ROUTES = ("GET /groups/{id}", "GET /groups/{id}/expenses", "GET /groups/{id}/balances",
               "GET /groups/{id}/activity", "POST /groups/{id}/expenses")


def link_sessions(rows: list, client, sign_in) -> None:
    """The same routes called by a signed-in member and by a share-link session acting as a
    guest: the session's link row is read in the access check's BatchGetItem, in place of
    the member's guard row and profile, so both make the same calls (docs/share-links.md)."""
    owner, _ = sign_in("lina@example.com")
    gid = client.post("/groups", json={"name": "Links", "currency": "EUR"},
                      headers=owner).get_json()["groupId"]
    base = f"/groups/{gid}"
    me = client.get(base, headers=owner).get_json()["myParticipantId"]
    token = client.post(f"{base}/links", json={"role": "MEMBER"}, headers=owner).get_json()["token"]
    session = client.post("/links/session", json={"token": token, "displayName": "Bo"}).get_json()
    callers = (("member", owner, me),
               ("link session", {"Authorization": f"Bearer {session['accessToken']}"},
                session["participantId"]))
    for who, headers, pid in callers:
        spend = {"description": "Taxi", "amount": 900, "splitMode": "EQUAL",
                 "payments": [{"participantId": pid, "amount": 900}],
                 "splits": [{"participantId": participant} for participant in {me, pid}]}
        paths = {"GET /groups/{id}": base, "GET /groups/{id}/expenses": f"{base}/expenses",
                 "GET /groups/{id}/balances": f"{base}/balances",
                 "GET /groups/{id}/activity": f"{base}/activity"}
        for label, path in paths.items():
            warm(rows, f"{label} ({who})", lambda path=path, headers=headers: client.get(
                path, headers=headers))
        once(rows, f"POST /groups/{{id}}/expenses ({who})", lambda headers=headers, spend=spend:
             client.post(f"{base}/expenses", json=spend, headers=headers))


def measure(reported_only: bool = False) -> list:
    """(label, calls) of every route measured, in order; ``reported_only``: only the routes
    report_rows() shows."""
    rows: list = []
    with bench_app() as (client, sign_in):
        ada, ada_id = sign_in("ada@example.com")
        me = warm(rows, "GET /users/me", lambda: client.get("/users/me", headers=ada))
        assert me["userId"] == ada_id
        client.application.extensions["tailspend"].authenticator.identities.clear()
        once(rows, "GET /users/me (identity not cached)",
             lambda: client.get("/users/me", headers=ada))
        preferences = ("PATCH /notifications/preferences",
                       lambda: client.patch("/notifications/preferences",
                                            json={"types": {"EXPENSE_ADDED": False}},
                                            headers=ada))
        if reported_only:
            warm(rows, *preferences)
            link_sessions(rows, client, sign_in)
            return rows
        bob, bob_id = sign_in("bob@example.com")
        group = client.post("/groups", json={"name": "Bench", "currency": "EUR"},
                            headers=ada).get_json()
        gid, pid = group["groupId"], group["myParticipantId"]
        base = f"/groups/{gid}"

        warm(rows, "GET /notifications", lambda: client.get("/notifications", headers=ada))
        warm(rows, "POST /notifications/read {all}",
                lambda: client.post("/notifications/read", json={"all": True}, headers=ada))
        warm(rows, "GET /notifications/preferences",
                lambda: client.get("/notifications/preferences", headers=ada))
        warm(rows, *preferences)
        warm(rows, "PUT /notifications/mutes/{groupId}",
                lambda: client.put(f"/notifications/mutes/{gid}", headers=ada))
        warm(rows, "DELETE /notifications/mutes/{groupId}",
                lambda: client.delete(f"/notifications/mutes/{gid}", headers=ada))
        device = warm(rows, "POST /notifications/devices",
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
        warm(rows, "GET /groups/{id}/recurring", lambda: client.get(f"{base}/recurring",
                                                                      headers=ada))
        warm(rows, "GET /groups/{id}/recurring/{rid}", lambda: client.get(one, headers=ada))
        once(rows, "PATCH /groups/{id}/recurring/{rid} (pause)",
             lambda: client.patch(one, json={"paused": True, "updatedAt": made["updatedAt"]},
                                  headers=ada))
        once(rows, "DELETE /groups/{id}/recurring/{rid}", lambda: client.delete(one, headers=ada))

        once(rows, "POST /people/me/friends", lambda: client.post(
            "/people/me/friends", json={"userId": bob_id}, headers=ada))
        once(rows, "POST /people/me/friends/{id}/accept", lambda: client.post(
            f"/people/me/friends/{ada_id}/accept", headers=bob))
        warm(rows, "GET /people/me/friends", lambda: client.get("/people/me/friends",
                                                                   headers=ada))
        once(rows, "DELETE /people/me/friends/{id}", lambda: client.delete(
            f"/people/me/friends/{bob_id}", headers=ada))

        group_views(rows, client, sign_in)
        link_sessions(rows, client, sign_in)
    return rows


def report_rows(rows: list) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() counted."""
    calls = dict(rows)
    return [
        ("users_me_calls", "GET /users/me, DynamoDB calls (identity cached / not cached)",
         f"{calls['GET /users/me'].total} / {calls['GET /users/me (identity not cached)'].total}"
         f" ({calls['GET /users/me (identity not cached)']} uncached)"),
        ("preferences_patch_calls", "PATCH /notifications/preferences, DynamoDB calls",
         str(calls["PATCH /notifications/preferences"])),
        ("link_session_calls", "A share-link session / a member on the same routes, DynamoDB "
         "calls (" + ", ".join(LINK_ROUTES) + ")",
         ", ".join(f"{calls[f'{route} (link session)'].total} / {calls[f'{route} (member)'].total}"
                   for route in LINK_ROUTES))]


def main() -> None:
    rows = measure()
    width = max(len(label) for label, _ in rows)
    print(f"{'route':<{width}} | DynamoDB calls (warm)")
    for label, counter in rows:
        print(f"{label:<{width}} | {counter}")
    report("routes_bench", report_rows(rows))

if __name__ == "__main__":
    main()
