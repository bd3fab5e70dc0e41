"""Scan -> draft -> confirm, attach and detach, limits, and what deleting takes with it."""
from __future__ import annotations

import pytest

from app.core.access import authorize
from app.receipts import limits, scanning
from tests.receipts import images
from tests.receipts.conftest import objects, s3


def _credits(group) -> int:
    return group.client.get("/users/me/credits", headers=group.headers).get_json()["balance"]


def test_scan_drafts_an_expense_and_confirm_attaches_the_receipt_once(group):
    receipt_id = group.ready(images.receipt())
    before = _credits(group)
    reply = group.client.post(group.path(receipt_id, "/scan"), headers=group.headers)
    assert reply.status_code == 202, reply.get_json()
    scan = group.get(receipt_id)["scan"]
    assert scan["status"] == "DONE", scan
    assert scan["total"] == 1050 and scan["currency"] == "EUR"
    assert scan["date"] == "2026-03-14" and scan["merchant"] == "CORNER BAKERY"
    assert _credits(group) == before - 1
    draft = scan["draft"]
    assert draft["payments"] == [{"participantId": group.me, "amount": 1050}]
    assert draft["items"][0]["splitMode"] == "EQUAL"
    assert {s["participantId"] for s in draft["items"][0]["splits"]} == {group.me, group.ann,
                                                                         group.bo}
    confirmed = group.client.post(group.path(receipt_id, "/confirm"), json={},
                                  headers=group.headers)
    assert confirmed.status_code == 201, confirmed.get_json()
    expense = confirmed.get_json()
    assert expense["receipt"]["receiptId"] == receipt_id and expense["receipt"]["thumbnailUrl"]
    assert expense["description"] == "CORNER BAKERY"
    again = group.client.post(group.path(receipt_id, "/confirm"), json={},
                              headers=group.headers)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "RECEIPT_CONFIRMED"
    listed = group.client.get(f"/groups/{group.group_id}/expenses", headers=group.headers)
    assert [e["expenseId"] for e in listed.get_json()["items"]] == [expense["expenseId"]]
    read = group.client.get(f"/groups/{group.group_id}/expenses/{expense['expenseId']}",
                            headers=group.headers).get_json()
    assert read["receipt"]["receiptId"] == receipt_id
    assert group.get(receipt_id)["expenseId"] == expense["expenseId"]


def test_confirm_takes_an_edited_body_and_a_replay_is_refused_even_after_a_delete(group):
    receipt_id = group.ready(images.receipt())
    body = {"description": "Bakery", "amount": 999,
            "payments": [{"participantId": group.ann, "amount": 999}],
            "splitMode": "EQUAL", "splits": [{"participantId": group.ann, "value": 1},
                                             {"participantId": group.bo, "value": 1}]}
    first = group.client.post(group.path(receipt_id, "/confirm"), json={"expense": body},
                              headers=group.headers)
    assert first.status_code == 201, first.get_json()
    assert first.get_json()["amount"] == 999
    replay = group.client.post(group.path(receipt_id, "/confirm"), json={"expense": body},
                               headers=group.headers)
    assert replay.status_code == 409
    assert replay.get_json()["error"]["details"]["expenseId"] == first.get_json()["expenseId"]


def test_confirm_without_a_scan_or_a_body_is_refused(group):
    receipt_id = group.ready(images.receipt())
    reply = group.client.post(group.path(receipt_id, "/confirm"), json={},
                              headers=group.headers)
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "SCAN_NOT_DONE"


def test_a_scan_needs_a_ready_receipt(group):
    reply = group.start()
    receipt_id = reply.get_json()["receiptId"]
    scanned = group.client.post(group.path(receipt_id, "/scan"), headers=group.headers)
    assert scanned.status_code == 409
    assert scanned.get_json()["error"]["code"] == "RECEIPT_NOT_READY"


def _access(group):
    return authorize(group.user_id, group.group_id, "MEMBER")


def test_a_scan_costs_credits_402_when_short(group, settings):
    receipt_id = group.ready(images.receipt())
    with pytest.raises(Exception) as refused:
        scanning.request_scan(_access(group), receipt_id,
                              settings._replace(receipt_scan_credits=10_000))
    assert refused.value.code == "INSUFFICIENT_CREDITS" and refused.value.status == 402
    assert "scan" not in group.get(receipt_id)


def test_a_failed_scan_is_refunded(group, settings):
    receipt_id = group.ready(images.receipt())
    before = _credits(group)
    scanning.request_scan(_access(group), receipt_id,
                          settings._replace(receipt_scan_engine="no-such-engine"))
    scan = group.get(receipt_id)["scan"]
    assert scan["status"] == "FAILED" and scan["reason"] == "UNAVAILABLE"
    assert _credits(group) == before
    entries = group.client.get("/users/me/credits", headers=group.headers).get_json()["items"]
    assert {"REFUND", "RECEIPT_SCAN"} <= {e["reason"] for e in entries}


def test_twenty_scans_a_day_beyond_credits(group, settings, monkeypatch):
    monkeypatch.setattr(limits, "SCANS_PER_USER_PER_DAY", 2)
    failing = settings._replace(receipt_scan_engine="no-such-engine")
    receipt_id = group.ready(images.receipt())
    for _ in range(2):
        scanning.request_scan(_access(group), receipt_id, failing)
    with pytest.raises(Exception) as refused:
        scanning.request_scan(_access(group), receipt_id, failing)
    assert refused.value.code == "RECEIPT_LIMIT" and refused.value.status == 429


def test_a_hundred_receipts_per_group_per_day(group, monkeypatch):
    monkeypatch.setattr(limits, "RECEIPTS_PER_GROUP_PER_DAY", 3)
    assert [group.start().status_code for _ in range(4)] == [201, 201, 201, 429]
    assert group.start().get_json()["error"]["code"] == "RECEIPT_LIMIT"


def test_attach_detach_and_the_expense_reply(group):
    expense = group.expense()
    assert "receipt" not in expense
    receipt_id = group.ready(images.receipt())
    url = f"/groups/{group.group_id}/expenses/{expense['expenseId']}/receipt"
    attached = group.client.put(url, json={"receiptId": receipt_id}, headers=group.headers)
    assert attached.status_code == 200, attached.get_json()
    assert attached.get_json()["receipt"]["receiptId"] == receipt_id
    assert attached.get_json()["version"] == expense["version"] + 1
    assert group.client.put(url, json={"receiptId": receipt_id},
                            headers=group.headers).status_code == 200
    second = group.expense()
    taken = group.client.put(f"/groups/{group.group_id}/expenses/{second['expenseId']}/receipt",
                             json={"receiptId": receipt_id}, headers=group.headers)
    assert taken.get_json()["error"]["code"] == "RECEIPT_ATTACHED"
    assert objects(receipt_id)
    assert group.client.delete(url, headers=group.headers).status_code == 204
    assert objects(receipt_id) == []
    assert group.client.get(group.path(receipt_id), headers=group.headers).status_code == 404
    read = group.client.get(f"/groups/{group.group_id}/expenses/{expense['expenseId']}",
                            headers=group.headers).get_json()
    assert "receipt" not in read
    assert group.client.delete(url, headers=group.headers).status_code == 404


def test_a_trashed_expense_keeps_its_receipt_until_the_purge_deletes_it(group, monkeypatch):
    from app.core.clock import epoch
    from app.ledger import trash
    from app.limits import TRASH_KEEP_SECONDS
    expense = group.expense()
    receipt_id = group.ready(images.receipt())
    group.client.put(f"/groups/{group.group_id}/expenses/{expense['expenseId']}/receipt",
                     json={"receiptId": receipt_id}, headers=group.headers)
    assert group.client.delete(f"/groups/{group.group_id}/expenses/{expense['expenseId']}",
                               headers=group.headers).status_code == 204
    kept = objects(receipt_id)
    assert kept  # in the trash: a restore brings the expense back with its receipt
    assert group.client.get(group.path(receipt_id), headers=group.headers).status_code == 200
    later = epoch() + TRASH_KEEP_SECONDS + 1
    monkeypatch.setattr(trash, "epoch", lambda: later)
    assert trash.purge_expired()["trashPurged"] == 1
    assert objects(receipt_id) == []
    assert group.client.get(group.path(receipt_id), headers=group.headers).status_code == 404


def test_deleting_the_group_deletes_every_object(group):
    group.ready(images.receipt())
    pending = group.start().get_json()["receiptId"]
    from app import blobs

    s3().put_object(Bucket=blobs.bucket(),
                              Key=blobs.key(group.group_id, pending, blobs.UPLOAD), Body=b"x")
    assert len(objects(group.group_id)) == 3
    assert group.client.delete(f"/groups/{group.group_id}",
                               headers=group.headers).status_code in (202, 204)
    assert objects(group.group_id) == []


def test_deleting_the_account_deletes_its_unattached_receipts(group, sign_in):
    from dataclasses import replace

    from tests.ledger.helpers import join_directly

    headers, sam_id = sign_in("sam@example.com", display_name="Sam")
    sam = replace(group, headers=headers, user_id=sam_id,
                  me=join_directly(group.group_id, sam_id, "MEMBER", "Sam"))
    # The group stays (Rita owns it), so only Sam's receipt that no expense holds goes.
    kept_expense = sam.expense()
    kept = sam.ready(images.receipt())
    sam.client.put(f"/groups/{group.group_id}/expenses/{kept_expense['expenseId']}/receipt",
                   json={"receiptId": kept}, headers=sam.headers)
    loose = sam.ready(images.receipt())
    ritas = group.ready(images.receipt())
    deleted = sam.client.delete("/users/me", headers=sam.headers)
    assert deleted.status_code in (202, 204), deleted.get_json()
    assert objects(loose) == [] and objects(kept) and objects(ritas)
    assert group.client.get(group.path(loose), headers=group.headers).status_code == 404


def test_no_scan_is_admitted_for_an_account_being_deleted(group, monkeypatch):
    from app.auth import authenticate
    from models.users import DELETING, Profile

    receipt_id = group.ready(images.receipt())
    before = _credits(group)
    Profile(*Profile.key(group.user_id)).update(actions=[Profile.Status.set(DELETING)])
    monkeypatch.setattr(authenticate, "is_live", lambda _user_id: True)
    reply = group.client.post(group.path(receipt_id, "/scan"), headers=group.headers)
    assert reply.status_code in (401, 404), reply.get_json()
    Profile(*Profile.key(group.user_id)).update(actions=[Profile.Status.remove()])
    assert "scan" not in group.get(receipt_id) and _credits(group) == before


def test_the_json_export_lists_receipt_ids(group):
    expense = group.expense()
    receipt_id = group.ready(images.receipt())
    group.client.put(f"/groups/{group.group_id}/expenses/{expense['expenseId']}/receipt",
                     json={"receiptId": receipt_id}, headers=group.headers)
    exported = group.client.get(f"/groups/{group.group_id}/export?format=json",
                                headers=group.headers).get_json()
    assert [e.get("receipt", {}).get("receiptId") for e in exported["expenses"]] == [receipt_id]


def test_an_upload_never_completed_expires_with_the_tables_ttl_and_a_completed_one_stays(group):
    from models.groups.receipts import Receipt
    from app.core.clock import epoch

    started = group.start().get_json()["receiptId"]
    row = Receipt.get(*Receipt.key(group.group_id, started), consistent_read=True)
    assert abs(row.ExpiresAt - (epoch() + 24 * 3600)) < 60  # a number: TTL reads only those
    completed = group.ready(images.receipt())
    row = Receipt.get(*Receipt.key(group.group_id, completed), consistent_read=True)
    assert row.ExpiresAt is None and row.Status == "READY"
