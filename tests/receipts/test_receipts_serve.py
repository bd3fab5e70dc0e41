"""`make dev`'s real path: a receipt photo drawn in a TrueType font, with EXIF and GPS,
uploaded by a presigned POST to the embedded S3 (as a client would, with `requests`),
completed, READY with no EXIF left, scanned by the local OCR engine, confirmed, replayed."""
from __future__ import annotations

import io
import time

import requests
from PIL import Image

from tests.receipts import images


def _until(served, path, token, ready, timeout=180.0):
    deadline = time.monotonic() + timeout
    while True:
        status, body = served.call("GET", path, token=token)
        assert status == 200, body
        if ready(body) or time.monotonic() > deadline:
            return body
        time.sleep(0.3)


def test_a_photo_is_uploaded_cleaned_scanned_and_confirmed_once(served_app):
    token, _ = served_app.sign_in("receipt-serve@example.com", "Reese")
    status, group = served_app.call("POST", "/groups", {"name": "Bakery run", "currency": "EUR"},
                                    token=token)
    assert status == 201, group
    gid = group["groupId"]
    status, _guest = served_app.call("POST", f"/groups/{gid}/participants",
                                     {"displayName": "Kim"}, token=token)
    assert status == 201
    photo = images.receipt(orientation=6)
    assert images.has_exif(photo)

    status, started = served_app.call("POST", f"/groups/{gid}/receipts",
                                      {"contentType": "image/jpeg", "size": len(photo)},
                                      token=token)
    assert status == 201, started
    assert started["status"] == "UPLOADING"
    upload = started["upload"]
    assert upload["url"].startswith(served_app.db_url)  # the embedded S3, same endpoint
    assert "x-amz-signature" in upload["fields"] and upload["fields"]["key"].endswith(
        started["receiptId"])
    posted = requests.post(upload["url"], data=upload["fields"],
                           files={"file": ("receipt.jpg", photo, "image/jpeg")}, timeout=30)
    assert posted.status_code in (200, 201, 204), posted.text

    path = f"/groups/{gid}/receipts/{started['receiptId']}"
    status, completed = served_app.call("POST", path + "/complete", token=token)
    assert status == 202, completed
    receipt = _until(served_app, path, token, lambda b: b["status"] in ("READY", "FAILED"))
    assert receipt["status"] == "READY", receipt
    kept = requests.get(receipt["imageUrl"], timeout=30)
    assert kept.status_code == 200
    assert not images.has_exif(kept.content)
    with Image.open(io.BytesIO(kept.content)) as image:
        assert image.size == (700, 900)  # the orientation applied, then re-encoded

    status, scanning = served_app.call("POST", path + "/scan", token=token)
    assert status == 202, scanning
    scanned = _until(served_app, path, token,
                     lambda b: b.get("scan", {}).get("status") in ("DONE", "FAILED"))
    scan = scanned["scan"]
    assert scan["status"] == "DONE", (scan, served_app.output()[-3000:])
    assert scan["engine"] == "rapidocr"
    assert (scan["total"], scan["currency"]) == (1050, "EUR")
    assert scan["date"] == "2026-03-14" and scan["merchant"] == "CORNER BAKERY"
    assert scan["draft"]["payments"][0]["amount"] == 1050

    status, expense = served_app.call("POST", path + "/confirm", {}, token=token)
    assert status == 201, expense
    assert expense["receipt"]["receiptId"] == started["receiptId"]
    assert requests.get(expense["receipt"]["thumbnailUrl"], timeout=30).status_code == 200
    status, replay = served_app.call("POST", path + "/confirm", {}, token=token)
    assert status == 409 and replay["error"]["code"] == "RECEIPT_CONFIRMED", replay
    status, listed = served_app.call("GET", f"/groups/{gid}/expenses", token=token)
    assert [e["expenseId"] for e in listed["items"]] == [expense["expenseId"]]


def test_local_modes_worker_thread_refuses_a_scan_bomb(served_app):
    """The same refusal in `serve`'s receipt worker thread as in the Lambda's."""
    token, _ = served_app.sign_in("receipt-bomb@example.com", "Bea")
    status, group = served_app.call("POST", "/groups", {"name": "Bombs", "currency": "EUR"},
                                    token=token)
    assert status == 201, group
    bomb = images.progressive(copies=4000)
    status, started = served_app.call("POST", f"/groups/{group['groupId']}/receipts",
                                      {"contentType": "image/jpeg", "size": len(bomb)},
                                      token=token)
    assert status == 201, started
    posted = requests.post(started["upload"]["url"], data=started["upload"]["fields"],
                           files={"file": ("bomb.jpg", bomb, "image/jpeg")}, timeout=30)
    assert posted.status_code in (200, 201, 204), posted.text
    path = f"/groups/{group['groupId']}/receipts/{started['receiptId']}"
    assert served_app.call("POST", path + "/complete", token=token)[0] == 202
    receipt = _until(served_app, path, token, lambda b: b["status"] in ("READY", "FAILED"))
    assert (receipt["status"], receipt.get("reason")) == ("FAILED", "TOO_COMPLEX"), receipt
