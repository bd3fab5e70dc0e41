"""Amazon Textract AnalyzeExpense (the AWS default engine).

Textract names the fields itself (SummaryFields TOTAL, VENDOR_NAME, INVOICE_RECEIPT_DATE,
each with a Currency; LineItemGroups with ITEM and PRICE). Their values are still printed
text ("$1,234.56", "14/03/26"), so they go through the one parser's amount and date readers
with the group's hints; a field Textract did not find falls back to the parser over the
document's LINE blocks (rows rebuilt from their boxes)."""
from __future__ import annotations

import threading
from typing import Dict, List, Optional, Tuple

from app.money.currencies import CODES, MINOR_UNITS
from app.money.amounts_and_dates import find_dates, parse_amount
from app.receipts.scan.parser import MAX_SCANNED_ITEMS, MAX_NAME, items_confidence, parse_lines
from app.receipts.scan.result import ScanError, ScanHints, ScanResult
from app.receipts.scan.rows import Box, rows
from app.receipts.scan.text import clean

NAME = "textract"
# Service errors that mean the image itself cannot be read (never retried).
UNREADABLE = {"UnsupportedDocumentException", "BadDocumentException",
              "DocumentTooLargeException", "InvalidParameterException"}
TOTAL_TYPES = ("TOTAL", "AMOUNT_PAID", "AMOUNT_DUE")
_clients: Dict[tuple, object] = {}
_lock = threading.Lock()


def client(settings):
    """One boto3 Textract client per region and timeout, per process."""
    key = (settings.region, settings.receipt_scan_timeout)
    with _lock:
        if key not in _clients:
            import boto3
            from botocore.config import Config

            _clients[key] = boto3.client("textract", region_name=settings.region, config=Config(
                read_timeout=settings.receipt_scan_timeout,
                connect_timeout=min(settings.receipt_scan_timeout, 5),
                retries={"max_attempts": 2, "mode": "standard"}))
        return _clients[key]


def scan(image_jpeg: bytes, hints: ScanHints, settings) -> ScanResult:
    from botocore.exceptions import BotoCoreError, ClientError, ReadTimeoutError

    try:
        reply = client(settings).analyze_expense(Document={"Bytes": image_jpeg})
    except ReadTimeoutError:
        raise ScanError("TIMEOUT") from None
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "")
        raise ScanError("MALFORMED" if code in UNREADABLE else "UNAVAILABLE", code) from None
    except BotoCoreError:
        raise ScanError("UNAVAILABLE") from None
    return result_of(reply, hints)


def _confidence(field: dict) -> float:
    value = (field.get("ValueDetection") or {}).get("Confidence")
    kind = (field.get("Type") or {}).get("Confidence")
    known = [c for c in (value, kind) if isinstance(c, (int, float))]
    return round(max(0.0, min(min(known) / 100, 1.0)), 2) if known else 0.5


def _text(field: dict) -> str:
    return clean((field.get("ValueDetection") or {}).get("Text") or "")


def _by_type(fields: List[dict]) -> Dict[str, List[dict]]:
    found: Dict[str, List[dict]] = {}
    for field in fields:
        kind = (field.get("Type") or {}).get("Text")
        if kind and _text(field):
            found.setdefault(kind, []).append(field)
    for kind in found:
        found[kind].sort(key=_confidence, reverse=True)
    return found


def _currency(document: dict) -> Optional[str]:
    fields = list(document.get("SummaryFields") or [])
    fields += [f for group in document.get("LineItemGroups") or []
               for item in group.get("LineItems") or [] for f in item.get("LineItemExpenseFields") or []]
    fields.sort(key=lambda f: (f.get("Type") or {}).get("Text") not in TOTAL_TYPES)
    for field in fields:
        code = ((field.get("Currency") or {}).get("Code") or "").upper()
        if code in CODES:
            return code
    return None


def _lines(document: dict) -> List[str]:
    boxes = []
    for block in document.get("Blocks") or []:
        box = ((block.get("Geometry") or {}).get("BoundingBox")) or {}
        if block.get("BlockType") == "LINE" and block.get("Text") and box:
            left, top = box.get("Left", 0.0), box.get("Top", 0.0)
            boxes.append(Box(block["Text"], left, top, left + box.get("Width", 0.0),
                             top + box.get("Height", 0.0)))
    return rows(boxes)


def _items(document: dict, currency: str) -> List[Tuple[str, int]]:
    items = []
    for group in document.get("LineItemGroups") or []:
        for line in group.get("LineItems") or []:
            fields = _by_type(line.get("LineItemExpenseFields") or [])
            name = _text(fields["ITEM"][0]) if "ITEM" in fields else ""
            price = fields.get("PRICE") or fields.get("UNIT_PRICE")
            amount = parse_amount(_text(price[0]), currency) if price else None
            if name and amount is not None:
                items.append((" ".join(name.split())[:MAX_NAME], amount))
    return items[:MAX_SCANNED_ITEMS]


def result_of(reply: dict, hints: ScanHints) -> ScanResult:
    """The fields of an AnalyzeExpense reply (its first expense document)."""
    documents = sorted(reply.get("ExpenseDocuments") or [], key=lambda d: d.get("ExpenseIndex", 0))
    if not documents:
        return ScanResult(engine=NAME, currency=hints.currency)
    document = documents[0]
    fallback = parse_lines(_lines(document), hints, engine=NAME)
    currency = _currency(document) or fallback.currency or hints.currency
    if currency not in MINOR_UNITS:
        currency = hints.currency
    summary = _by_type(document.get("SummaryFields") or [])
    confidence = dict(fallback.confidence)

    total = None
    for kind in TOTAL_TYPES:
        for field in summary.get(kind, ()):
            total = parse_amount(_text(field), currency)
            if total is not None:
                confidence["total"] = _confidence(field)
                break
        if total is not None:
            break
    if total is None and fallback.currency == currency:
        total = fallback.total
    elif total is None:
        confidence["total"] = 0.0

    merchant = None
    vendors = summary.get("VENDOR_NAME") or [  # else a NAME Textract grouped with the vendor
        f for f in summary.get("NAME", ()) if any(
            kind.startswith("VENDOR") for group in f.get("GroupProperties") or []
            for kind in group.get("Types") or [])]
    if vendors:
        merchant, confidence["merchant"] = _text(vendors[0])[:MAX_NAME], _confidence(vendors[0])
    merchant = merchant or fallback.merchant

    day = None
    for field in summary.get("INVOICE_RECEIPT_DATE", ()):
        dates = find_dates(_text(field), currency=hints.currency, expense_date=hints.date,
                           locale=hints.locale)
        if dates:
            day = dates[0].day
            confidence["date"] = round(_confidence(field) * (1.0 if dates[0].certain else 0.7), 2)
            break
    day = day or fallback.date

    items = _items(document, currency) or (list(fallback.items) if fallback.currency == currency
                                           else [])
    subtotals = frozenset(v for f in summary.get("SUBTOTAL", ())
                          for v in [parse_amount(_text(f), currency)] if v is not None)
    # The tax, tip, service and discount lines come from the parser over the same page.
    extras = fallback.extras if fallback.currency == currency else ()
    confidence["items"] = items_confidence(items, total, subtotals, extras)
    printed = _currency(document) is not None or fallback.currency_printed
    return ScanResult(engine=NAME, merchant=merchant, date=day, total=total, currency=currency,
                      currency_printed=printed, items=tuple(items), extras=extras,
                      confidence=confidence)
