"""Several receipts per expense (issue 47): up to 5 attachments, photos or PDFs; a 6th is
409 ATTACHMENT_LIMIT; PUT .../receipt attaches as the first; DELETE .../attachments/{id}
detaches and deletes one as DELETE .../receipt does; deleting the expense takes every
attachment's row and objects."""
from __future__ import annotations

from tests.receipts import images, pdfs
from tests.receipts.conftest import objects

INVOICE = ["Hotel Adler", "Rechnung 14.03.2026", "Zimmer 2 Naechte 180,00 EUR",
           "Gesamtbetrag 180,00 EUR"]


def _pdf(group) -> str:
    receipt_id = group.upload(pdfs.text_pdf(INVOICE), "application/pdf")
    assert group.complete(receipt_id).status_code == 202
    assert group.get(receipt_id)["status"] == "READY"
    return receipt_id


def _url(group, expense, tail="") -> str:
    return f"/groups/{group.group_id}/expenses/{expense['expenseId']}{tail}"


def _attach(group, expense, receipt_id):
    return group.client.post(_url(group, expense, "/attachments"), json={"receiptId": receipt_id},
                             headers=group.headers)


def test_five_attachments_then_409_and_the_reply_lists_them(group):
    expense = group.expense()
    photos = [group.ready(images.receipt()) for _ in range(4)]
    pdf = _pdf(group)
    for n, receipt_id in enumerate([*photos, pdf]):
        reply = _attach(group, expense, receipt_id)
        assert reply.status_code == 200, reply.get_json()
        assert reply.get_json()["version"] == expense["version"] + n + 1
    body = reply.get_json()
    assert [a["receiptId"] for a in body["attachments"]] == [*photos, pdf]
    assert [a["contentType"] for a in body["attachments"]] == ["image/jpeg"] * 4 + [
        "application/pdf"]
    assert all(a["thumbnailUrl"] for a in body["attachments"])
    assert body["receipt"]["receiptId"] == photos[0]  # the single field stays the first
    assert _attach(group, expense, pdf).status_code == 200  # the same again: as it is
    sixth = group.ready(images.receipt())
    refused = _attach(group, expense, sixth)
    assert refused.status_code == 409
    assert refused.get_json()["error"] == {
        "code": "ATTACHMENT_LIMIT", "message": refused.get_json()["error"]["message"],
        "details": {"limit": 5}}
    put = group.client.put(_url(group, expense, "/receipt"), json={"receiptId": sixth},
                           headers=group.headers)
    assert put.status_code == 409 and put.get_json()["error"]["code"] == "ATTACHMENT_LIMIT"
    read = group.client.get(_url(group, expense), headers=group.headers).get_json()
    assert [a["receiptId"] for a in read["attachments"]] == [*photos, pdf]


def test_put_attaches_as_the_first_and_detaching_the_first_promotes_the_next(group):
    expense = group.expense()
    later, first = group.ready(images.receipt()), _pdf(group)
    assert _attach(group, expense, later).status_code == 200
    put = group.client.put(_url(group, expense, "/receipt"), json={"receiptId": first},
                           headers=group.headers)
    assert put.status_code == 200, put.get_json()
    assert put.get_json()["receipt"]["receiptId"] == first
    assert [a["receiptId"] for a in put.get_json()["attachments"]] == [first, later]
    assert group.client.delete(_url(group, expense, "/receipt"),
                               headers=group.headers).status_code == 204
    assert objects(first) == [] and objects(later)
    read = group.client.get(_url(group, expense), headers=group.headers).get_json()
    assert read["receipt"]["receiptId"] == later
    assert [a["receiptId"] for a in read["attachments"]] == [later]


def test_deleting_one_attachment_deletes_it_and_keeps_the_others(group):
    expense = group.expense()
    a, b, c = (group.ready(images.receipt()) for _ in range(3))
    for receipt_id in (a, b, c):
        assert _attach(group, expense, receipt_id).status_code == 200
    gone = group.client.delete(_url(group, expense, f"/attachments/{b}"), headers=group.headers)
    assert gone.status_code == 204
    assert objects(b) == [] and objects(a) and objects(c)
    assert group.client.get(group.path(b), headers=group.headers).status_code == 404
    read = group.client.get(_url(group, expense), headers=group.headers).get_json()
    assert [x["receiptId"] for x in read["attachments"]] == [a, c]
    again = group.client.delete(_url(group, expense, f"/attachments/{b}"), headers=group.headers)
    assert again.status_code == 404
    other = group.expense()
    assert group.client.delete(_url(group, other, f"/attachments/{a}"),
                               headers=group.headers).status_code == 404
    assert objects(a)  # another expense's receipt is never touched


def test_an_attachment_must_be_a_ready_receipt_of_no_other_expense(group):
    expense, other = group.expense(), group.expense()
    pending = group.start().get_json()["receiptId"]
    refused = _attach(group, expense, pending)
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == \
        "RECEIPT_NOT_READY"
    taken = group.ready(images.receipt())
    assert _attach(group, other, taken).status_code == 200
    refused = _attach(group, expense, taken)
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == \
        "RECEIPT_ATTACHED"


def test_a_deleted_expense_keeps_every_attachment_in_the_trash_and_the_purge_deletes_them(
        group, monkeypatch):
    from app.core.clock import epoch
    from app.ledger import trash
    from app.limits import TRASH_KEEP_SECONDS
    expense = group.expense()
    attached = [group.ready(images.receipt()), _pdf(group), group.ready(images.receipt())]
    for receipt_id in attached:
        assert _attach(group, expense, receipt_id).status_code == 200
    assert group.client.delete(_url(group, expense), headers=group.headers).status_code == 204
    for receipt_id in attached:  # in the trash: a restore brings them back with it
        assert objects(receipt_id) != []
    later = epoch() + TRASH_KEEP_SECONDS + 1
    monkeypatch.setattr(trash, "epoch", lambda: later)
    assert trash.purge_expired()["trashPurged"] == 1
    for receipt_id in attached:
        assert objects(receipt_id) == []
        assert group.client.get(group.path(receipt_id), headers=group.headers).status_code == 404


def test_attaching_and_detaching_show_in_changes_and_activity(group):
    expense = group.expense()
    a, b = group.ready(images.receipt()), group.ready(images.receipt())
    for receipt_id in (a, b):
        assert _attach(group, expense, receipt_id).status_code == 200
    assert group.client.delete(_url(group, expense, f"/attachments/{a}"),
                               headers=group.headers).status_code == 204
    activity = group.client.get(f"/groups/{group.group_id}/activity", headers=group.headers)
    assert activity.status_code == 200, activity.get_json()
    diffs = [d for item in activity.get_json()["items"] for d in item["diff"]]
    assert {"field": "attachments", "before": [a, b], "after": [b]} in diffs
    assert {"field": "receiptId", "before": a, "after": b} in diffs
    changes = group.client.get(f"/groups/{group.group_id}/changes", headers=group.headers)
    assert changes.status_code == 200, changes.get_json()
