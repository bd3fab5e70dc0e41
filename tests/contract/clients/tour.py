"""The README's tour plus settlements, comments and the feeds, through the client that
openapi-python-client generated from the served /openapi.json (package `tailspend_client`
on sys.path). Bodies are the generated models (a field the model lacks is an error), replies
are parsed into them. Prints every reply (method, path, status, content type, body) as JSON."""
from __future__ import annotations

import json
import sys

import httpx
from tailspend_client import AuthenticatedClient, Client
from tailspend_client.api.balances import balances_get_balances
from tailspend_client.api.changes import changes_list_activity, changes_list_changes
from tailspend_client.api.comments import comments_add_comment
from tailspend_client.api.expenses import expenses_create_expense, expenses_delete_expense
from tailspend_client.api.groups import groups_add_guest, groups_create_group
from tailspend_client.api.local import local_mint_dev_token
from tailspend_client.api.settlements import (settlements_create_settlement,
                                              settlements_list_settlements)
from tailspend_client.models import (Balances, ChangeFeed, DevToken, DevTokenRequest, Expense,
                                     CommentBody, ExpenseCreate, Group, GroupCreate, GuestCreate,
                                     Participant, SettlementCreate)

LOG: list[dict] = []


def record(response: httpx.Response) -> None:
    response.read()
    LOG.append({"method": response.request.method, "path": response.request.url.path,
                "status": response.status_code,
                "contentType": response.headers.get("content-type", ""),
                "body": response.text})


def parsed(reply, kind):
    assert isinstance(reply.parsed, kind), (reply.status_code, reply.content[:500])
    return reply.parsed


def main(base: str) -> None:
    hooks = {"event_hooks": {"response": [record]}}
    anonymous = Client(base_url=base, httpx_args=hooks)
    token = parsed(local_mint_dev_token.sync_detailed(client=anonymous, body=DevTokenRequest(
        email="generated-client-py@example.com", display_name="Ada")), DevToken)
    client = AuthenticatedClient(base_url=base, token=token.access_token, httpx_args=hooks)
    group = parsed(groups_create_group.sync_detailed(client=client, body=GroupCreate.from_dict(
        {"name": "Lisbon trip", "currency": "EUR"})), Group)
    gid, ada = group.group_id, group.my_participant_id
    bo = parsed(groups_add_guest.sync_detailed(gid, client=client, body=GuestCreate(
        display_name="Bo")), Participant).participant_id
    expense = parsed(expenses_create_expense.sync_detailed(gid, client=client,
                                                           body=ExpenseCreate.from_dict({
        "description": "Dinner", "date": "2026-12-01", "amount": 4250, "splitMode": "EQUAL",
        "payments": [{"participantId": ada, "amount": 4250}],
        "splits": [{"participantId": ada, "value": 1}, {"participantId": bo, "value": 1}]})),
        Expense)
    balances = parsed(balances_get_balances.sync_detailed(gid, client=client), Balances)
    net = {b.participant_id: b.net for b in balances.balances}[bo]
    settlements_create_settlement.sync_detailed(gid, client=client, body=SettlementCreate(
        payer_id=bo, payee_id=ada, amount=-net))
    settlements_list_settlements.sync_detailed(gid, client=client)
    comments_add_comment.sync_detailed(gid, expense.expense_id, client=client,
                                       body=CommentBody(body="prawns"))
    expenses_delete_expense.sync_detailed(gid, expense.expense_id, client=client)
    changes = parsed(changes_list_changes.sync_detailed(gid, client=client), ChangeFeed)
    deleted = any(c.op == "DELETE" and c.data is None for c in changes.changes)
    changes_list_activity.sync_detailed(gid, client=client)
    print(json.dumps({"net": net, "deleted": deleted, "log": LOG}))


if __name__ == "__main__":
    main(sys.argv[1])
