"""Receipt scan time per image on the local engines: rapidocr (the local-mode default, its
models inside its wheel) and Tesseract where its binary is installed. Receipts are rendered
with Pillow in a real TrueType font (tests/receipts/test_scan_local.py), each read through
scan_receipt: OCR, rows rebuilt from boxes, the parser.

Run: .venv/bin/python bench/receipt_scan_bench.py"""
from __future__ import annotations

import os
import statistics
import time

from support import report

ROUNDS = 2


def _long_receipt() -> list:
    rows = [("SUPERMARKT NORD", ""), ("Ringstrasse 40, 20095 Hamburg", ""), ("14.03.2026  18:02", "")]
    rows += [(f"Artikel {n:02d}", f"{n},{n % 10}9") for n in range(1, 26)]
    total = sum(n * 100 + (n % 10) * 10 + 9 for n in range(1, 26))
    rows += [("SUMME EUR", f"{total // 100},{total % 100:02d}"), ("EC-Karte", "")]
    return rows


def _time(scan, image: bytes, expected_total: int, hints) -> float:
    started = time.perf_counter()
    result = scan(image, hints)
    elapsed = time.perf_counter() - started
    assert result.total == expected_total, (result.total, expected_total)
    return elapsed


def main() -> None:
    from app.config import Settings
    from app.receipts.scan import ScanHints, scan_receipt
    from app.receipts.scan.engines import tesseract
    from tests.receipts.test_scan_local import BERLIN_CAFE, US_DINER, render_receipt

    images = [(render_receipt(BERLIN_CAFE), 760, ScanHints("EUR")),
              (render_receipt(US_DINER), 1164, ScanHints("USD"))]
    long_receipt = _long_receipt()
    long_total = sum(n * 100 + (n % 10) * 10 + 9 for n in range(1, 26))
    long_image = render_receipt(long_receipt)
    rows = [("receipt-scan-cores", "Receipt scan: CPU cores available", str(os.cpu_count()))]

    local = Settings(local_mode=True)

    def rapid(image, hints):
        return scan_receipt(image, hints, local)

    started = time.perf_counter()
    rapid(*images[0][::2])  # the first call loads the PP-OCR models from the wheel
    rows.append(("receipt-scan-rapidocr-first", "Receipt scan, rapidocr: first image incl. model load",
                 f"{time.perf_counter() - started:.1f} s"))
    times = [_time(rapid, image, total, hints) for _ in range(ROUNDS) for image, total, hints in images]
    rows.append(("receipt-scan-rapidocr-image", "Receipt scan, rapidocr: per image (11-row receipt, median)",
                 f"{statistics.median(times):.1f} s"))
    rows.append(("receipt-scan-rapidocr-long", "Receipt scan, rapidocr: 30-row receipt",
                 f"{_time(rapid, long_image, long_total, ScanHints('EUR')):.1f} s"))

    if tesseract.binary():
        settings = Settings(receipt_scan_engine="tesseract")

        def tess(image, hints):
            return scan_receipt(image, hints, settings)

        times = [_time(tess, image, total, hints) for _ in range(ROUNDS) for image, total, hints in images]
        figure = f"{statistics.median(times):.1f} s"
    else:
        figure = "not installed"
    rows.append(("receipt-scan-tesseract-image", "Receipt scan, Tesseract: per image (median)", figure))
    report("receipt_scan_bench", rows)


if __name__ == "__main__":
    main()
