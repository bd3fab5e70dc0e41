"""DynamoDB calls per step of the MCP connector's OAuth flow, and per access-token check.

Every request without a bearer token also pays one UpdateItem: the per-address rate window.
Beyond it: authorize 2 (the registered client's row, the request Put; a metadata-document
client's document is cached instead), approve 3 (the request GetItem, the approval
TransactWrite, the code TransactWrite), exchange 3 (the code GetItem, the TransactWrite, the
grant GetItem that names the client and warms the 5 s cache), refresh 3 (the refresh-hash
GetItem, the grant GetItem, the TransactWrite); an access-token check is the profile's
liveness GetItem (every request, whatever is cached) plus the grant GetItem when the grant is
not cached (<= 5 s).

Run: .venv/bin/python bench/oauth_bench.py"""
from __future__ import annotations

import collections
import re
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls, report

REDIRECT = "http://127.0.0.1:33418/cb"
VERIFIER = "b" * 64


def measure() -> dict:
    """The calls of each step of the flow and of the two token checks, by step name."""
    from authlib.oauth2.rfc7636 import create_s256_code_challenge

    from app.oauth import access_tokens

    with bench_app() as (client, _sign_in):
        client_id = client.post("/oauth/register", json={"redirect_uris": [REDIRECT]}
                                ).get_json()["client_id"]
        url = "/oauth/authorize?" + urlencode({
            "response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT,
            "code_challenge": create_s256_code_challenge(VERIFIER),
            "code_challenge_method": "S256", "state": "s"})
        with count_dynamodb_calls() as authorize:
            reply = client.get(url)
        request_id = parse_qs(urlsplit(reply.headers["Location"]).query)["request"][0]
        page = client.get(f"/oauth/login?request={request_id}").get_data(as_text=True)
        csrf = re.search(r'name="csrf" value="([^"]*)"', page).group(1)
        client.post("/oauth/login", data={"request": request_id, "csrf": csrf,
                                          "email": "bench@example.com"})
        page = client.get(f"/oauth/consent?request={request_id}").get_data(as_text=True)
        csrf = re.search(r'name="csrf" value="([^"]*)"', page).group(1)
        with count_dynamodb_calls() as approve:
            reply = client.post("/oauth/consent", data={"request": request_id, "csrf": csrf,
                                                        "decision": "approve"})
        code = parse_qs(urlsplit(reply.headers["Location"]).query)["code"][0]
        access_tokens.grant_cache.clear()
        with count_dynamodb_calls() as exchange:
            tokens = client.post("/oauth/token", data={
                "grant_type": "authorization_code", "code": code, "code_verifier": VERIFIER,
                "redirect_uri": REDIRECT, "client_id": client_id}).get_json()
        with count_dynamodb_calls() as refresh:
            tokens = client.post("/oauth/token", data={
                "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                "client_id": client_id}).get_json()
        resource = "http://localhost/mcp"
        access_tokens.grant_cache.clear()
        with count_dynamodb_calls() as cold:
            access_tokens.verify_access_token(tokens["access_token"], resource=resource)
        with count_dynamodb_calls() as warm:
            access_tokens.verify_access_token(tokens["access_token"], resource=resource)
    return {"authorize": authorize, "approve": approve, "exchange": exchange,
            "refresh": refresh, "cold": cold, "warm": warm}


def report_rows(measured: dict) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() counted."""
    steps = tuple(measured[step] for step in ("authorize", "approve", "exchange", "refresh"))
    cold, warm = measured["cold"], measured["warm"]
    # Each of these requests carries no bearer token: its UpdateItem is the per-address window.
    assert all(step.calls["UpdateItem"] == 1 for step in steps), steps
    beyond = [step.calls - collections.Counter(UpdateItem=1) for step in steps]
    return [
        ("oauth_flow_calls",
         "MCP OAuth, DynamoDB calls beyond each anonymous request's rate-window UpdateItem: "
         "authorize / approve / code exchange / refresh",
         " / ".join(str(sum(calls.values())) for calls in beyond) + " ("
         + "; ".join(", ".join(f"{name} {n}" for name, n in sorted(calls.items()))
                     for calls in beyond) + ")"),
        ("mcp_token_check_calls",
         "MCP access-token check, DynamoDB calls: grant cached (<= 5 s) / not cached",
         f"{warm.total} / {cold.total} (cached: {warm}, the profile's liveness read; not "
         f"cached: {cold})"),
    ]


def main() -> None:
    measured = measure()
    authorize, approve, exchange, refresh, cold, warm = (
        measured[step] for step in ("authorize", "approve", "exchange", "refresh", "cold",
                                    "warm"))
    print(f"GET /oauth/authorize (registered client):      {authorize}")
    print(f"POST /oauth/consent approve (grant + code):     {approve}")
    print(f"POST /oauth/token authorization_code:           {exchange}")
    print(f"POST /oauth/token refresh_token:                {refresh}")
    print(f"access-token check, grant not cached:           {cold}")
    print(f"access-token check, grant cached (<= 5 s):      {warm}")
    report("oauth_bench", report_rows(measured))


if __name__ == "__main__":
    main()
