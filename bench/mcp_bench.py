"""DynamoDB calls per MCP tools/call, beside the REST route each tool stands for.

A tools/call pays, beyond its service's own calls: one TransactWrite (the connection's
per-minute window and the owner's daily developer budget together, as a PAT request does) and
one TransactWrite of the usage row when the reply closes; and the token check reads the profile
(GetItem), which the REST routes fold into a BatchGetItem of their own (a group route's
authorizing one, home's batch of heads): +3 for every tool. The grant status read (one consistent
GetItem) is cached for up to 5 s per process, so warm calls skip it; "cold" shows it.
initialize, ping and tools/list touch DynamoDB only for that grant read. get_group also reads
the roster (one Query), which REST serves from a second route (/participants).

Run: .venv/bin/python bench/mcp_bench.py"""
from __future__ import annotations

import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.support import bench_app, count_dynamodb_calls, report

ACCEPT = "application/json, text/event-stream"


def measure() -> tuple:
    """([(tool, REST route, REST calls, warm tools/call calls)], cold get_balances calls)."""
    from app.oauth import access_tokens
    from models.users import McpGrant

    with bench_app() as (client, sign_in):
        headers, user_id = sign_in("bench@example.com")
        group = client.post("/groups", headers=headers,
                            json={"name": "Bench", "currency": "EUR"}).get_json()
        gid, me = group["groupId"], group["myParticipantId"]
        grant_id = str(uuid.uuid4())
        McpGrant(*McpGrant.key(user_id, grant_id), GrantId=grant_id, Status="ACTIVE",
                 Client="bench").save()
        token = access_tokens.mint_access_token(
            user_id=user_id, grant_id=grant_id, client_name="bench",
            resource="http://localhost/mcp",
            scopes=["groups:read", "expenses:write", "settlements:write"])
        mcp_headers = {"Authorization": f"Bearer {token}", "Accept": ACCEPT}

        def tool(name, arguments):
            reply = client.post("/mcp", headers=mcp_headers, buffered=True, json={
                "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}})
            assert reply.get_json()["result"]["isError"] is False, reply.get_json()
            return reply

        expense = {"description": "Bench", "amount": "12.30", "splitMode": "EQUAL",
                   "payments": [{"participantId": me, "amount": "12.30"}],
                   "splits": [{"participantId": me}]}
        rest_expense = {**expense, "amount": 1230, "payments": [{"participantId": me,
                                                                "amount": 1230}]}
        cases = [
            ("list_groups", {}, ("GET", "/users/me/groups", None)),
            ("get_group", {"groupId": gid}, ("GET", f"/groups/{gid}", None)),
            ("get_balances", {"groupId": gid}, ("GET", f"/groups/{gid}/balances", None)),
            ("list_expenses", {"groupId": gid}, ("GET", f"/groups/{gid}/expenses", None)),
            ("add_expense", {"groupId": gid, **expense},
             ("POST", f"/groups/{gid}/expenses", rest_expense)),
        ]
        tool("list_groups", {})  # warms the grant cache and the tool registry
        rows = []
        for name, arguments, (method, path, body) in cases:
            client.open(path, method=method, headers=headers, json=body, buffered=True)
            with count_dynamodb_calls() as rest:
                client.open(path, method=method, headers=headers, json=body, buffered=True)
            with count_dynamodb_calls() as warm:
                tool(name, arguments)
            rows.append((name, f"{method} {path.replace(gid, '{groupId}')}", rest, warm))
        access_tokens.grant_cache.clear()
        with count_dynamodb_calls() as cold:
            tool("get_balances", {"groupId": gid})
    return rows, cold


def report_rows(measured: tuple) -> list:
    """The report rows (docs/benchmarks.md's table) of what measure() counted."""
    rows, cold = measured
    extra = {name: warm.total - rest.total for name, _route, rest, warm in rows}
    balances_rest = next(rest for name, _route, rest, _warm in rows if name == "get_balances")
    return [(
        "mcp_extra_calls",
        "MCP tools/call vs its REST route, DynamoDB calls added, warm (grant cached <= 5 s) / "
        "grant not cached",
        ", ".join(f"{name} +{n}" for name, n in extra.items())
        + f" / get_balances +{cold.total - balances_rest.total} (window+budget and usage "
        "TransactWrites; the profile GetItem the REST routes fold into a batch; get_group's "
        "roster Query; cold adds the grant GetItem)")]


def main() -> None:
    measured = measure()
    rows, cold = measured
    for name, route, rest, warm in rows:
        print(f"tools/call {name:<14} {warm}")
        print(f"  REST {route:<33} {rest}  (extra for MCP: {warm.total - rest.total})")
    print(f"tools/call get_balances, grant not cached: {cold}")
    report("mcp_bench", report_rows(measured))


if __name__ == "__main__":
    main()
