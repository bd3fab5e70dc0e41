"""MCP: get_receipt reads a receipt as its REST route does; get_expense names it."""
from __future__ import annotations

from tests.mcp.mcp_client import grant_token, ok, tool_error
from tests.receipts import images

NOBODY = "00000000-0000-4000-8000-000000000000"


def _call(group, token, name, arguments):
    reply = group.client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                            "params": {"name": name, "arguments": arguments}},
                              headers={"Authorization": f"Bearer {token}",
                                       "Accept": "application/json, text/event-stream"},
                              buffered=True)
    assert reply.status_code == 200, reply.get_data(as_text=True)
    return reply.get_json()["result"]


def test_get_receipt_and_get_expense_name_the_receipt(group):
    expense = group.expense()
    receipt_id = group.ready(images.receipt())
    group.client.put(f"/groups/{group.group_id}/expenses/{expense['expenseId']}/receipt",
                     json={"receiptId": receipt_id}, headers=group.headers)
    token, _ = grant_token(group.user_id)
    got = ok(_call(group, token, "get_expense", {"groupId": group.group_id,
                                                 "expenseId": expense["expenseId"]}))
    assert got["receipt"]["receiptId"] == receipt_id
    receipt = ok(_call(group, token, "get_receipt", {"groupId": group.group_id,
                                                     "receiptId": receipt_id}))
    assert receipt["status"] == "READY" and receipt["expenseId"] == expense["expenseId"]
    assert receipt["thumbnailUrl"] and receipt["imageUrl"]
    missing = _call(group, token, "get_receipt", {"groupId": group.group_id,
                                                  "receiptId": NOBODY})
    assert tool_error(missing)["code"] == "NOT_FOUND"
