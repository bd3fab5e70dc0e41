"""DynamoDB calls per request: Cognito-style (app) sign-in vs personal access token, warm and cold.

A PAT request pays, beyond the route's own calls: one TransactWrite (its per-minute window and
the owner's daily budget together) and one TransactWrite of the usage row when the reply closes
(both hold the owner's account live); an app request pays one UpdateItem (its per-minute
window) when that limit is on. Every request reads the caller's profile: a PAT's check is a
GetItem; an app sign-in's, on this route, rides on the route's own BatchGetItem (@needs(
liveness_in_view=True)), so the app figure is the route alone.
Cold (token not in the 5 s verification cache) adds the token GetItem, and once a minute per
token the LastUsedAt conditional update.

Run: .venv/bin/python bench/developer_bench.py"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls, report

PATH = "/users/me/groups"


def measure() -> dict:
    """The calls of the route for an app sign-in, a PAT warm and cold, and an app sign-in
    with the per-minute window on."""
    with bench_app() as (client, sign_in):
        headers, _ = sign_in("bench@example.com")
        client.post("/groups", headers=headers, json={"name": "Bench", "currency": "EUR"})
        token = client.post("/developer/tokens", headers=headers,
                            json={"name": "bench", "scopes": ["groups:read"]}).get_json()["token"]
        pat = {"Authorization": f"Bearer {token}"}
        verifier = client.application.extensions["developer"].verifier

        client.get(PATH, headers=headers, buffered=True)
        with count_dynamodb_calls() as app_warm:
            assert client.get(PATH, headers=headers, buffered=True).status_code == 200
        client.get(PATH, headers=pat, buffered=True)  # warms the cache and writes LastUsedAt
        with count_dynamodb_calls() as pat_warm:
            assert client.get(PATH, headers=pat, buffered=True).status_code == 200
        verifier.clear()
        with count_dynamodb_calls() as pat_cold:
            assert client.get(PATH, headers=pat, buffered=True).status_code == 200

    assert "UpdateItem" not in app_warm.calls, app_warm  # no window of its own by default
    return {"app_warm": app_warm, "pat_warm": pat_warm, "pat_cold": pat_cold,
            "limited": _app_request_with_limit()}


def report_rows(measured: dict) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() counted."""
    app_warm, pat_warm, pat_cold, limited = (
        measured[name] for name in ("app_warm", "pat_warm", "pat_cold", "limited"))
    added = limited.calls - app_warm.calls
    return [(
        "app_rate_limit_calls",
        "rate limit per request (app sign-in), DynamoDB calls added",
        "0 by default (API Gateway's stage throttle limits app users); "
        f"+{limited.total - app_warm.total} ("
        + ", ".join(f"{name} {n}" for name, n in sorted(added.items()))
        + ") with RATE_LIMIT_APP_PER_MINUTE set"), (
        "pat_extra_calls",
        f"PAT request vs app sign-in, GET {PATH}: DynamoDB calls, app sign-in / PAT warm "
        "(token cached <= 5 s) / PAT cold",
        f"{app_warm.total} / {pat_warm.total} / {pat_cold.total}: a PAT adds "
        f"+{pat_warm.total - app_warm.total} warm, +{pat_cold.total - app_warm.total} cold "
        f"(PAT warm: {pat_warm})")]


def main() -> None:
    measured = measure()
    app_warm, pat_warm, pat_cold, limited = (
        measured[name] for name in ("app_warm", "pat_warm", "pat_cold", "limited"))
    print(f"GET {PATH} DynamoDB calls, app sign-in (identity cached): {app_warm}")
    print(f"GET {PATH} DynamoDB calls, PAT warm (token cached):       {pat_warm}")
    print(f"GET {PATH} DynamoDB calls, PAT cold (token fetched):      {pat_cold}")
    print(f"GET {PATH} DynamoDB calls, app sign-in, RATE_LIMIT_APP_PER_MINUTE set: {limited}")
    report("developer_bench", report_rows(measured))


def _app_request_with_limit():
    """The app sign-in's warm request again, on an app with a per-minute window for it."""
    with bench_app(rate_limit_app_per_minute=600) as (client, sign_in):
        headers, _ = sign_in("limited@example.com")
        client.post("/groups", headers=headers, json={"name": "Bench", "currency": "EUR"})
        client.get(PATH, headers=headers, buffered=True)
        with count_dynamodb_calls() as calls:
            assert client.get(PATH, headers=headers, buffered=True).status_code == 200
    return calls


if __name__ == "__main__":
    main()
