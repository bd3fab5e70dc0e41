"""The one receipt parser: text lines -> merchant, date, total, currency, items."""
from __future__ import annotations

from app.services.receipts.scan import ScanHints, ScanResult
from app.services.receipts.scan.parser import parse_lines


def test_a_german_supermarket_receipt_reads_whole():
    result = parse_lines(["REWE Markt GmbH", "Hauptstr. 5, 10115 Berlin", "Milch 1,09 A",
                          "Brot", "2 x 0,99 1,98 B", "SUMME EUR 3,07", "Bar 5,00",
                          "Rückgeld 1,93", "14.03.2026 12:31"], ScanHints("EUR"))
    assert isinstance(result, ScanResult)
    assert (result.merchant, result.date, result.total, result.currency) == (
        "REWE Markt GmbH", "2026-03-14", 307, "EUR")
    assert result.items == (("Milch", 109), ("Brot", 198))
    assert result.confidence["items"] == 0.9
