"""group_access, the one way a view authorizes in a group: one read per request, role and
prefetch, and never an answer read without the rows a view asked to prefetch."""
from __future__ import annotations

from flask import g

from app.api.context import group_access
from app.auth.principal import Principal, app_credential
from app.ledger.balances import BALANCE, BALANCES_PREFETCH
from tests.support.aws_calls import recorded


def test_a_request_reads_once_per_role_and_prefetch(app, client, sign_in):
    headers, user_id = sign_in("ada@example.com")
    group = client.post("/groups", json={"name": "Trip", "currency": "EUR"},
                        headers=headers).get_json()
    pid = group["myParticipantId"]
    reply = client.post(f"/groups/{group['groupId']}/expenses", headers=headers, json={
        "description": "Tea", "amount": 500, "splitMode": "EQUAL",
        "payments": [{"participantId": pid, "amount": 500}], "splits": [{"participantId": pid}]})
    assert reply.status_code == 201, reply.get_json()
    with app.test_request_context(), recorded() as calls:
        g.principal = Principal(user_id, f"dev|{user_id}", app_credential(user_id))
        plain = group_access(group["groupId"])
        with_balance = group_access(group["groupId"], prefetch=BALANCES_PREFETCH)
        again = group_access(group["groupId"])
    assert plain.prefetched == {} and with_balance.prefetched[BALANCE] is not None
    assert again is plain and calls == ["BatchGetItem", "BatchGetItem"]
