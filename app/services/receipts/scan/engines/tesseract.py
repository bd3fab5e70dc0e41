"""The tesseract engine: being built on h/rscan (issue 35 item 3); until then it is unavailable."""
from __future__ import annotations

from app.services.receipts.scan.result import ScanError, ScanHints, ScanResult


def scan(image_jpeg: bytes, hints: ScanHints, settings) -> ScanResult:
    raise ScanError("UNAVAILABLE", "the tesseract engine is not built yet")
