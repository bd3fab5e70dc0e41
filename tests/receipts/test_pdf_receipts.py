"""PDF receipts (issue 47): accepted; the PDF's own text is parsed when it has some, else the
first page is rendered and read by the OCR engine; the first page is the thumbnail; more
than 10 pages, a password or a broken file is FAILED with its reason and nothing kept; the
bounds (pages counted first, the render's size fixed whatever the page declares, a CPU
budget) hold; Textract is handed a one-page PDF as it is."""
from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from app import blobs
from app.receipts import pdfs as reader
from app.receipts.images import Refused
from app.receipts.scan import ScanHints, scan_receipt
from app.config import Settings
from tests.receipts import pdfs
from tests.receipts.conftest import objects, s3

INVOICE = ["Stadtwerke Musterstadt GmbH", "Rechnung Nr. 2026-0314", "Datum: 14.03.2026",
           "Grundgebuehr 12,50 EUR", "Arbeitspreis 48,20 EUR", "Zaehlermiete 3,00 EUR",
           "Rechnungsbetrag 63,70 EUR"]
PHOTO = ("CORNER BAKERY", "12 Market Street", "Date: 14/03/2026", "", "Croissant      3.20",
         "Coffee         2.80", "Orange juice   4.50", "", "TOTAL EUR     10.50")


def _ready(group, data: bytes) -> tuple:
    receipt_id = group.upload(data, "application/pdf")
    assert group.complete(receipt_id).status_code == 202
    body = group.get(receipt_id)
    assert body["status"] == "READY", body
    return receipt_id, body


def _scan(group, receipt_id) -> dict:
    reply = group.client.post(group.path(receipt_id, "/scan"), headers=group.headers)
    assert reply.status_code == 202, reply.get_json()
    scan = group.get(receipt_id)["scan"]
    assert scan["status"] == "DONE", scan
    return scan


def _picture(key: str) -> Image.Image:
    data = s3().get_object(Bucket=blobs.bucket(), Key=key)["Body"].read()
    return Image.open(io.BytesIO(data))


def test_a_text_pdf_scans_to_its_total_from_its_own_text(group):
    receipt_id, body = _ready(group, pdfs.text_pdf(INVOICE))
    assert body["thumbnailUrl"] and body["imageUrl"] and body["documentUrl"]
    assert (body["contentType"], body["pages"]) == ("application/pdf", 1)
    kept = objects(receipt_id)
    assert {k.rsplit("/", 1)[1] for k in kept} == {blobs.IMAGE, blobs.THUMBNAIL,
                                                   blobs.DOCUMENT, blobs.TEXT}
    thumb = _picture(next(k for k in kept if k.endswith(blobs.THUMBNAIL)))
    assert thumb.format == "JPEG" and max(thumb.size) == 320  # the first page
    scan = _scan(group, receipt_id)
    assert scan["engine"] == "pdf-text"
    assert (scan["total"], scan["currency"], scan["date"]) == (6370, "EUR", "2026-03-14")
    assert scan["merchant"] == "Stadtwerke Musterstadt GmbH"
    assert [i["amount"] for i in scan["items"]] == [1250, 4820, 300]


@pytest.mark.slow
def test_a_photo_saved_as_a_pdf_is_rendered_and_read_by_ocr(group):
    receipt_id, _ = _ready(group, pdfs.photo_pdf(PHOTO))
    assert not any(k.endswith(blobs.TEXT) for k in objects(receipt_id))  # no text of its own
    scan = _scan(group, receipt_id)
    assert scan["engine"] == "rapidocr"
    assert (scan["total"], scan["currency"], scan["merchant"]) == (1050, "EUR", "CORNER BAKERY")


def _failed(group, data: bytes, reason: str) -> dict:
    receipt_id = group.upload(data, "application/pdf")
    assert group.complete(receipt_id).status_code == 202
    body = group.get(receipt_id)
    assert (body["status"], body["reason"]) == ("FAILED", reason), body
    assert objects(receipt_id) == []
    return body


def test_eleven_pages_are_too_many(group):
    _failed(group, pdfs.text_pdf(INVOICE, pages=11), "TOO_MANY_PAGES")
    _ready(group, pdfs.text_pdf(INVOICE, pages=10))


def test_a_pdf_that_needs_a_password_is_encrypted(group):
    body = _failed(group, pdfs.encrypted_pdf(INVOICE), "ENCRYPTED")
    assert "password" in body["reasonMessage"]


def test_a_truncated_pdf_is_corrupt(group):
    whole = pdfs.text_pdf(INVOICE)
    _failed(group, whole[: len(whole) // 3], "CORRUPT")


def test_a_giant_page_renders_no_larger_than_the_bound():
    """A page that declares 200 x 200 inches (14,400 pt, PDF's own maximum) renders at
    RENDER_LONG_SIDE pixels: the work follows the bound, not the file's claim."""
    giant = pdfs.text_pdf(INVOICE).replace(b"/MediaBox [0 0 420 842]",
                                           b"/MediaBox [0 0 14400 14400]")
    read = reader.read(giant)
    assert max(read.first_page.size) == reader.RENDER_LONG_SIDE


def test_the_cpu_budget_refuses_a_pdf_too_slow_to_read(monkeypatch):
    monkeypatch.setattr(reader, "PDF_CPU_SECONDS", 0.0)
    with pytest.raises(Refused) as refused:
        reader.read(pdfs.text_pdf(INVOICE))
    assert refused.value.reason == "TOO_COMPLEX"


def test_the_heaviest_page_under_the_size_cap_is_refused_at_the_budget(monkeypatch):
    """A 10 MB content stream of strokes, the most drawing work a file under the size cap
    can ask of one render (~23 s of CPU drawn in one call): the progressive render pauses
    when the budget is spent and the PDF is TOO_COMPLEX, not a worker stuck in PDFium.
    (The budget is cut to 1 s here to keep the test short; the bound is the same.)"""
    monkeypatch.setattr(reader, "PDF_CPU_SECONDS", 1.0)
    strokes = b"".join(b"%d %d m %d %d l S\n" % (n % 400, n % 800, (n * 7) % 400,
                                                 (n * 3) % 800) for n in range(450_000))
    heavy = pdfs.text_pdf(INVOICE, prefix=strokes)
    assert len(heavy) < 10 * 1024 * 1024
    spent = time.thread_time()
    with pytest.raises(Refused) as refused:
        reader.read(heavy)
    assert refused.value.reason == "TOO_COMPLEX"
    assert time.thread_time() - spent < 3.0


def test_textract_is_handed_a_one_page_pdf_as_it_is(monkeypatch):
    """The AWS engine takes the PDF natively: AnalyzeExpense's synchronous call reads a
    single-page PDF, so the document's bytes go, not the rendered picture."""
    from app.receipts.scan.engines import textract

    sent = []

    class Client:
        def analyze_expense(self, Document):  # boto3 names it so
            sent.append(Document["Bytes"])
            return {"ExpenseDocuments": []}

    monkeypatch.setattr(textract, "client", lambda settings: Client())
    document = pdfs.text_pdf(INVOICE)
    scan_receipt(b"jpeg bytes", ScanHints("EUR"), Settings(), pdf=document)
    scan_receipt(b"jpeg bytes", ScanHints("EUR"), Settings())
    assert sent == [document, b"jpeg bytes"]
