"""Receipt capture in the web app (issue 49, api.md "Receipts"): a photo picked on the phone
goes by the presigned POST to the embedded S3, is completed, scanned (local mode's OCR) and
its draft confirmed into an expense that carries the receipt."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.receipts.images import receipt
from tests.web.conftest import call
from tests.web.test_web_app import create_group, sign_in


def test_a_receipt_photo_is_uploaded_scanned_and_confirmed_into_an_expense(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Rita")
    group_id = create_group(phone, "Bakery run", guests=("Bo",))
    page.get_by_role("link", name="Expenses").click()
    page.get_by_role("link", name="Scan a receipt").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scan a receipt")
    photo = page.get_by_label("Receipt photo")
    assert photo.get_attribute("accept").startswith("image/*")
    assert photo.get_attribute("capture") == "environment"
    phone.assert_accessible("receipt, pick")

    photo.set_input_files({"name": "receipt.jpg", "mimeType": "image/jpeg", "buffer": receipt()})
    expect(page.get_by_role("heading", name="Check the expense")).to_be_visible(timeout=90_000)
    expect(page.get_by_text("Total €10.50")).to_be_visible()
    lines = page.get_by_role("list", name="Lines on the receipt")
    expect(lines).to_contain_text("Croissant")
    expect(page.get_by_role("img", name="The receipt")).to_be_visible()
    page.get_by_label("Description").fill("Corner Bakery breakfast")
    phone.assert_accessible("receipt, draft")
    phone.shot("receipt")

    page.get_by_role("button", name="Add expense").click()
    expect(page.get_by_role("link", name="Edit Corner Bakery breakfast")).to_be_visible()
    status, expenses = call(phone.url, "GET", f"/groups/{group_id}/expenses", phone.token())
    assert status == 200
    [expense] = expenses["items"]
    assert expense["amount"] == 1050 and expense["receipt"]["receiptId"]
