"""Receipts by a share-link session (docs/share-links.md), through the Flask test client on
moto: a MEMBER link's guest uploads, attaches, confirms and detaches as its guest; a scan is
refused (credits are an account's); a VIEWER link's guest uploads nothing."""
from __future__ import annotations

import dataclasses

from tests.receipts import images


def _guest(group, role="MEMBER"):
    """The group as seen by a session acting as Ann (a guest), through a ``role`` link."""
    client = group.client
    link = client.post(f"/groups/{group.group_id}/links", json={"role": role},
                       headers=group.headers).get_json()
    session = client.post("/links/session", json={"token": link["token"],
                                                  "participantId": group.ann})
    assert session.status_code == 201, session.get_json()
    headers = {"Authorization": f"Bearer {session.get_json()['accessToken']}"}
    return dataclasses.replace(group, headers=headers)


def test_a_member_links_guest_uploads_confirms_attaches_and_detaches(group):
    guest = _guest(group)
    receipt_id = guest.ready(images.receipt())
    body = {"description": "Taxi", "amount": 1200, "date": "2026-05-01",
            "payments": [{"participantId": guest.ann, "amount": 1200}],
            "splitMode": "EQUAL", "splits": [{"participantId": guest.ann}]}
    confirmed = guest.client.post(guest.path(receipt_id, "/confirm"), json={"expense": body},
                                  headers=guest.headers)
    assert confirmed.status_code == 201, confirmed.get_json()
    assert confirmed.get_json()["receipt"]["receiptId"] == receipt_id
    seen = group.client.get(f"/groups/{group.group_id}/expenses/"
                            f"{confirmed.get_json()['expenseId']}", headers=group.headers)
    assert seen.get_json()["receipt"]["receiptId"] == receipt_id
    expense = guest.expense()
    another = guest.ready(images.receipt())
    attach = f"/groups/{group.group_id}/expenses/{expense['expenseId']}/receipt"
    attached = guest.client.put(attach, json={"receiptId": another}, headers=guest.headers)
    assert attached.status_code == 200, attached.get_json()
    assert guest.client.delete(attach, headers=guest.headers).status_code == 204
    activity = group.client.get(f"/groups/{group.group_id}/activity",
                                headers=group.headers).get_json()["items"]
    assert any(i["summary"].startswith("Ann (by link) added Taxi") for i in activity)


def test_a_sessions_scan_is_refused_with_its_reason_and_spends_nothing(group):
    guest = _guest(group)
    receipt_id = guest.ready(images.receipt())
    reply = guest.client.post(guest.path(receipt_id, "/scan"), headers=guest.headers)
    assert reply.status_code == 403, reply.get_json()
    assert reply.get_json()["error"]["details"]["reason"] == "SCAN_NEEDS_ACCOUNT"
    assert guest.get(receipt_id).get("scan") is None


def test_a_viewer_links_guest_cannot_upload_but_can_read(group):
    receipt_id = group.ready(images.receipt())
    viewer = _guest(group, "VIEWER")
    assert viewer.start().status_code == 403
    assert viewer.get(receipt_id)["status"] == "READY"
