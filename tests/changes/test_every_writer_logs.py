"""Every writer of a group's content logs its change: the walk below drives each one (API
and background jobs alike) and reads what was actually sent to DynamoDB. Any
TransactWriteItems that writes a content row (participant, expense, comment, settlement,
recurring template, a head's name or counters) must also put a CHANGE row and update the
head's Revision in the same request; and the log of each group ends gap-free at the head's
revision. (The Transaction helper refuses such a write without its change anyway: the last
test proves that guard.)"""
from __future__ import annotations

import re

import pytest

from app.core.transactions import Transaction
from app.recurring.tick import run_tick
from models.groups import Change, Expense, Group
from tests.groups.conftest import add_guest, join, owner, submit  # noqa: F401 — fixtures
from tests.ledger.helpers import equal_body
from tests.recurring.helpers import template_body
from tests.support import renames
from tests.support.aws_calls import requests_made

GROUPS = re.compile(r"tailspend-.*-groups$")
CONTENT_PREFIXES = ("PARTICIPANT#", "EXPENSE#", "SETTLEMENT#", "RECURRING#", "CONVERSION#")
# Attributes no read shows: a transaction touching only these is not a content change
# (the transfer lock, the reminder bookkeeping).
INVISIBLE = {"TransferTarget", "IncomingTransfers", "ReminderSlot", "UpdatedAt"}


def _items(params: dict):
    for item in params["TransactItems"]:
        (op, body), = item.items()
        if GROUPS.match(body["TableName"]):
            yield op, body


def _names(body: dict) -> set:
    """The attributes an Update sets, adds or removes (its condition's are not counted)."""
    names = body.get("ExpressionAttributeNames") or {}
    return {names.get(token, token) for token in re.findall(r"#\w+", body.get("UpdateExpression", ""))}


def _is_content(op: str, body: dict) -> bool:
    key = body["Key"] if "Key" in body else body["Item"]
    sk = key["SK"]["S"]
    if op == "ConditionCheck":
        return False
    if sk.startswith(CONTENT_PREFIXES):
        return op != "Update" or not _names(body) <= INVISIBLE
    # The head's rows only: the balance row's copy of Name/Currency rides in the head's own
    # (logged) transaction.
    return sk == "META" and (op != "Update" or bool(
        _names(body) & {"Name", "Currency", "OwnerCount", "ParticipantCount"}))


def _logs_its_change(items: list) -> bool:
    puts = [b for op, b in items if op == "Put" and b["Item"]["SK"]["S"].startswith("CHANGE#")]
    head = [b for op, b in items if b.get("Key", b.get("Item", {})).get("SK", {}).get("S") == "META"
            and op in ("Update", "Put")]
    bumped = any("Revision" in _names(b) or "Revision" in b.get("Item", {}) for b in head)
    return bool(puts) and len(head) == 1 and bumped


def _walk(client, sign_in, owner, join, add_guest, submit):
    """Every writer once; returns the group ids it touched."""
    gid, h = owner.gid, owner.headers
    base = f"/groups/{gid}"

    def ok(reply, *codes):
        assert reply.status_code in (codes or (200, 201, 202, 204)), reply.get_json(silent=True)
        return reply.get_json(silent=True)

    ok(client.patch(base, json={"name": "Lisbon"}, headers=h))
    gus, tom, ivy = add_guest("Gus"), add_guest("Tom"), add_guest("Ivy")
    ok(client.patch(f"{base}/participants/{gus}", json={"role": "VIEWER"}, headers=h))
    ok(client.patch(f"{base}/participants/{ivy}", json={"displayName": "Ivy L"}, headers=h))
    ok(client.delete(f"{base}/participants/{ivy}", headers=h))
    bea = join("bea@example.com")
    cy_headers, _ = sign_in("cy@example.com")
    request = ok(submit(cy_headers, mode="TAKEOVER", targetParticipantId=gus))
    ok(client.post(f"{base}/join-requests/{request['requestId']}/approve",
                   json={"role": "MEMBER"}, headers=h))
    # money and comments
    expense = ok(client.post(f"{base}/expenses",
                             json=equal_body(owner.pid, 3000, [owner.pid, tom, bea.pid]),
                             headers=h))
    eid = expense["expenseId"]
    ok(client.patch(f"{base}/expenses/{eid}", json={"version": 1, "description": "Pasta"},
                    headers=h))
    comment = ok(client.post(f"{base}/expenses/{eid}/comments", json={"body": "yum"},
                             headers=h))
    ok(client.patch(f"{base}/expenses/{eid}/comments/{comment['commentId']}",
                    json={"body": "yum!"}, headers=h))
    ok(client.delete(f"{base}/expenses/{eid}/comments/{comment['commentId']}", headers=h))
    other = ok(client.post(f"{base}/expenses", json=equal_body(tom, 900, [owner.pid, tom]),
                           headers=h))
    settlement = ok(client.post(f"{base}/settlements", json={
        "payerId": tom, "payeeId": owner.pid, "amount": 100}, headers=h))
    ok(client.patch(f"{base}/settlements/{settlement['settlementId']}",
                    json={"version": 1, "amount": 150}, headers=h))
    second = ok(client.post(f"{base}/settlements", json={
        "payerId": bea.pid, "payeeId": owner.pid, "amount": 100}, headers=h))
    ok(client.delete(f"{base}/settlements/{second['settlementId']}", headers=h))
    # a kept currency and its conversion into the main one
    ok(client.post(f"{base}/expenses", json={**equal_body(tom, 900, [owner.pid, tom]),
                                             "currency": "USD"}, headers=h))
    ok(client.post(f"{base}/conversions", json={"currency": "USD", "exchangeRate": "0.92"},
                   headers=h))
    # recurring: create, patch, the tick's occurrences, delete
    template = ok(client.post(f"{base}/recurring", json=template_body(
        owner.pid, 1000, [owner.pid, tom], start="2026-01-31"), headers=h))
    rid = template["recurringId"]
    template = ok(client.patch(f"{base}/recurring/{rid}", json={
        "updatedAt": template["updatedAt"], "description": "Rent!"}, headers=h))
    assert run_tick("2026-03-01T00:00:00Z")["created"] == 2
    kept = ok(client.post(f"{base}/recurring", json=template_body(
        tom, 500, [owner.pid, tom], start="2026-01-31"), headers=h))
    ok(client.delete(f"{base}/recurring/{rid}", headers=h))
    # a transfer: Tom (a guest named by an expense, a settlement and a template) into the owner
    ok(client.post(f"{base}/participants/{tom}/transfer",
                   json={"targetParticipantId": owner.pid}, headers=h))
    ok(client.delete(f"{base}/expenses/{other['expenseId']}", headers=h))
    ok(client.delete(f"{base}/recurring/{kept['recurringId']}", headers=h))
    # direct invitations: invite + accept, invite + decline, invite + revoke
    for email, answer in (("dee@example.com", "accept"), ("eve@example.com", "decline"),
                          ("fay@example.com", None)):
        guest_headers, guest_id = sign_in(email)
        handle = email.split("@")[0] + "_h"
        ok(client.put("/people/me/handle", json={"handle": handle, "discoverable": True},
                      headers=guest_headers))
        ok(client.post(f"{base}/invitations", json={"userId": guest_id, "role": "MEMBER"},
                       headers=h))
        if answer:
            ok(client.post(f"/people/me/invitations/{gid}/{answer}", headers=guest_headers))
        else:
            ok(client.delete(f"{base}/invitations/{guest_id}", headers=h))
    # a member renames themself (their participant rows follow), leaves; an account goes
    ok(client.patch("/users/me", json={"displayName": "Bea B"}, headers=bea.headers))
    renames.run_worker()
    ok(client.post(f"{base}/leave", headers=cy_headers))
    ok(client.delete("/users/me", headers=bea.headers))
    return [gid]


def test_every_content_write_carries_its_change_row_and_revision_bump(client, sign_in, owner,
                                                                     join, add_guest, submit):
    with requests_made() as made:
        group_ids = _walk(client, sign_in, owner, join, add_guest, submit)
    transactions = [list(_items(params)) for name, params in made
                    if name == "TransactWriteItems"]
    content = [items for items in transactions if any(_is_content(*i) for i in items)]
    unlogged = [[(op, b.get("Key", b.get("Item"))["SK"]["S"]) for op, b in items]
                for items in content if not _logs_its_change(items)]
    assert unlogged == []
    kinds = {item[1].get("Key", item[1].get("Item"))["SK"]["S"].split("#")[0]
             for items in content for item in items if _is_content(*item)}
    assert kinds == {"META", "PARTICIPANT", "EXPENSE", "SETTLEMENT", "RECURRING", "CONVERSION"}
    assert len(content) >= 40  # the walk above: a shorter list means a writer went missing
    for gid in group_ids:
        revisions = [int(c.Revision) for c in Change.after(gid, 0, consistent_read=True)]
        head = Group.get(*Group.key(gid), consistent_read=True)
        assert revisions == list(range(1, int(head.Revision) + 1))


def test_a_content_write_without_its_change_is_refused_before_it_is_sent(aws):
    row = Expense("g", Expense.sort_key("e"), ExpenseId="e", Description="d", Date="2026-01-01",
                  Currency="EUR", Amount=1, Payments=[], Items=[])
    with requests_made() as made, pytest.raises(ValueError, match="without its change row"):
        Transaction().put(row).commit()
    assert made == []
