"""The Textract engine on recorded AnalyzeExpense response shapes (botocore's Stubber: moto
has no Textract). The Stubber checks each reply against botocore's model of the service, so
a shape that AWS would not send fails here."""
from __future__ import annotations

import pytest
from botocore.stub import Stubber

from app.config import Settings
from app.receipts.scan import ScanError, ScanHints, scan_receipt
from app.receipts.scan.engines import textract

IMAGE = b"\xff\xd8\xff\xe0 a jpeg's bytes"
SETTINGS = Settings(region="eu-west-1", receipt_scan_engine="textract")


def _geometry(left, top, width=0.2, height=0.02):
    return {"BoundingBox": {"Width": width, "Height": height, "Left": left, "Top": top},
            "Polygon": [{"X": left, "Y": top}, {"X": left + width, "Y": top},
                        {"X": left + width, "Y": top + height}, {"X": left, "Y": top + height}]}


def _detection(text, left, top, confidence=99.1):
    return {"Text": text, "Geometry": _geometry(left, top), "Confidence": confidence}


def _field(kind, value, top, *, label=None, currency=None, confidence=98.7, groups=None):
    field = {"Type": {"Text": kind, "Confidence": confidence},
             "ValueDetection": _detection(value, 0.7, top, confidence), "PageNumber": 1}
    if label:
        field["LabelDetection"] = _detection(label, 0.1, top)
    if currency:
        field["Currency"] = {"Code": currency, "Confidence": 91.3}
    if groups:
        field["GroupProperties"] = [{"Types": groups, "Id": "4b7e0c4e-5a63-4b31-9d53-3e4c0c1f1a10"}]
    return field


def _item_row(name, price, top, quantity=None):
    fields = [_field("ITEM", name, top), _field("PRICE", price, top, currency="EUR")]
    if quantity:
        fields.append(_field("QUANTITY", quantity, top))
    fields.append(_field("EXPENSE_ROW", f"{name} {price}", top))
    return {"LineItemExpenseFields": fields}


def _line(text, left, top, n):
    return {"BlockType": "LINE", "Confidence": 99.4, "Text": text, "Geometry": _geometry(left, top),
            "Id": f"00000000-0000-4000-8000-{n:012d}", "Page": 1}


def _reply(summary, items=(), lines=()):
    blocks = [{"BlockType": "PAGE", "Geometry": _geometry(0, 0, 1, 1),
               "Id": "00000000-0000-4000-8000-999999999999", "Page": 1}]
    blocks += [_line(text, left, top, n) for n, (text, left, top) in enumerate(lines)]
    return {"DocumentMetadata": {"Pages": 1},
            "ExpenseDocuments": [{"ExpenseIndex": 1, "SummaryFields": summary,
                                  "LineItemGroups": [{"LineItemGroupIndex": 1,
                                                      "LineItems": list(items)}],
                                  "Blocks": blocks}]}


GERMAN_CAFE = _reply(
    summary=[_field("VENDOR_NAME", "Café Einstein", 0.05, groups=["VENDOR"]),
             _field("ADDRESS", "Unter den Linden 42 10117 Berlin", 0.08, groups=["VENDOR"]),
             _field("INVOICE_RECEIPT_DATE", "14.03.2026", 0.12, label="Datum"),
             _field("SUBTOTAL", "10,84", 0.50, label="Netto", currency="EUR"),
             _field("TAX", "2,06", 0.53, label="MwSt 19%", currency="EUR"),
             _field("TOTAL", "12,90 €", 0.56, label="Summe", currency="EUR"),
             _field("AMOUNT_PAID", "20,00", 0.60, label="Bar", currency="EUR", confidence=88.0)],
    items=[_item_row("Cappuccino", "3,40", 0.30), _item_row("Apfelstrudel", "4,90", 0.33),
           _item_row("Mineralwasser", "4,60", 0.36, quantity="2")],
    lines=[("Café Einstein", 0.1, 0.05), ("Datum 14.03.2026", 0.1, 0.12),
           ("Summe", 0.1, 0.56), ("12,90 €", 0.7, 0.56)])


EUROS = ScanHints("EUR")


def _scan(reply, hints=EUROS):
    with Stubber(textract.client(SETTINGS)) as stub:
        stub.add_response("analyze_expense", reply, {"Document": {"Bytes": IMAGE}})
        result = scan_receipt(IMAGE, hints, SETTINGS)
        stub.assert_no_pending_responses()
    return result


def test_summary_fields_and_line_items_become_the_scan():
    result = _scan(GERMAN_CAFE)
    assert result.engine == "textract"
    assert (result.merchant, result.date, result.total, result.currency) == (
        "Café Einstein", "2026-03-14", 1290, "EUR")
    assert result.items == (("Cappuccino", 340), ("Apfelstrudel", 490), ("Mineralwasser", 460))
    assert result.confidence == {"merchant": 0.99, "date": 0.99, "total": 0.99, "items": 0.9}


def test_the_total_is_never_the_amount_paid_when_a_total_is_there():
    assert _scan(GERMAN_CAFE).total == 1290  # AMOUNT_PAID 20,00 is cash tendered


def test_an_items_mismatch_lowers_confidence_and_keeps_the_total():
    reply = _reply(summary=[_field("TOTAL", "$23.10", 0.5, currency="USD")],
                   items=[_item_row("Burger", "12.50", 0.3), _item_row("Fries", "4.50", 0.32)])
    result = _scan(reply, ScanHints("USD"))
    assert (result.total, result.currency) == (2310, "USD")
    assert result.confidence["items"] == 0.3


def test_the_currency_comes_from_textract_and_sets_the_exponent():
    reply = _reply(summary=[_field("VENDOR_NAME", "ローソン", 0.05),
                            _field("INVOICE_RECEIPT_DATE", "2026年3月14日", 0.1),
                            _field("TOTAL", "¥1,280", 0.5, currency="JPY")])
    result = _scan(reply, ScanHints("EUR"))
    assert (result.merchant, result.date, result.total, result.currency) == (
        "ローソン", "2026-03-14", 1280, "JPY")


def test_an_ambiguous_date_is_read_with_the_expense_date_and_trusted_less():
    reply = _reply(summary=[_field("INVOICE_RECEIPT_DATE", "03/04/2026", 0.1),
                            _field("TOTAL", "9.99", 0.5, currency="USD")])
    assert _scan(reply, ScanHints("USD", date="2026-03-05")).date == "2026-03-04"
    result = _scan(reply, ScanHints("EUR", date="2026-04-02"))
    assert result.date == "2026-04-03"
    assert result.confidence["date"] == 0.69


def test_fields_textract_missed_come_from_its_lines_through_the_parser():
    reply = _reply(summary=[_field("VENDOR_NAME", "Albert Heijn", 0.05)],
                   lines=[("Albert Heijn", 0.1, 0.05), ("12-03-2026 18:04", 0.1, 0.1),
                          ("TOTAAL", 0.1, 0.5), ("7,45", 0.7, 0.5), ("PIN", 0.1, 0.55),
                          ("7,45", 0.7, 0.55)])
    result = _scan(reply)
    assert (result.merchant, result.date, result.total) == ("Albert Heijn", "2026-03-12", 745)
    assert result.confidence["total"] == 0.8


def test_a_name_grouped_with_the_vendor_is_the_merchant_when_there_is_no_vendor_name():
    reply = _reply(summary=[_field("NAME", "Jane Doe", 0.2, groups=["RECEIVER_BILL_TO"]),
                            _field("NAME", "Hotel Adlon", 0.05, confidence=93.0,
                                   groups=["VENDOR", "VENDOR_SUPPLIER"]),
                            _field("TOTAL", "245,00 €", 0.5, currency="EUR")])
    result = _scan(reply)
    assert (result.merchant, result.confidence["merchant"], result.total) == (
        "Hotel Adlon", 0.93, 24500)


def test_an_empty_analysis_is_a_scan_that_found_nothing():
    result = _scan({"DocumentMetadata": {"Pages": 1}, "ExpenseDocuments": []})
    assert (result.total, result.merchant, result.date, result.items) == (None, None, None, ())
    assert set(result.confidence.values()) == {0.0}


@pytest.mark.parametrize("code, expected", [("UnsupportedDocumentException", "MALFORMED"),
                                            ("ThrottlingException", "UNAVAILABLE"),
                                            ("AccessDeniedException", "UNAVAILABLE")])
def test_service_errors_become_scan_errors(code, expected):
    with Stubber(textract.client(SETTINGS)) as stub:
        stub.add_client_error("analyze_expense", service_error_code=code, http_status_code=400)
        with pytest.raises(ScanError) as raised:
            scan_receipt(IMAGE, ScanHints("EUR"), SETTINGS)
    assert raised.value.code == expected
