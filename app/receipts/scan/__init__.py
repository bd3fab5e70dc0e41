"""Receipt scanning: one interface over several engines, one parser for the text they read.

``scan_receipt(image_jpeg, hints, settings) -> ScanResult``. The engine is
``settings.receipt_scan_engine`` (see :func:`engine_name`): Amazon Textract AnalyzeExpense
(the AWS default), ``rapidocr`` (local OCR with its models inside its wheel, the local-mode
default: nothing leaves the machine), ``tesseract`` (when its binary is installed) or
``openai`` (an OpenAI-compatible vision endpoint, opt-in). Engines are imported on first use:
the Lambda package carries neither rapidocr nor onnxruntime."""
from __future__ import annotations

from typing import Optional

from app.receipts.scan.result import ScanError, ScanHints, ScanResult

ENGINES = ("textract", "rapidocr", "tesseract", "openai")

__all__ = ["ENGINES", "ScanError", "ScanHints", "ScanResult", "engine_name", "scan_receipt"]


def engine_name(settings) -> str:
    """The configured engine; unset, Textract in AWS and rapidocr in local mode."""
    name = (settings.receipt_scan_engine or "").strip().lower()
    if not name:
        return "rapidocr" if settings.local_mode else "textract"
    if name == "local":
        return "rapidocr"
    if name not in ENGINES:
        raise ScanError("UNAVAILABLE", f"unknown receipt scan engine {name!r}")
    return name


def scan_receipt(image_jpeg: bytes, hints: ScanHints, settings,
                 pdf: Optional[bytes] = None) -> ScanResult:
    """Read one receipt image (JPEG bytes, as ingest leaves it) into fields; ScanError when
    the engine gives nothing usable. ``pdf``: the receipt's own one-page PDF, which Textract
    reads natively (its synchronous AnalyzeExpense takes a single-page PDF); the other
    engines read the rendered page."""
    name = engine_name(settings)
    if name == "textract":
        from app.receipts.scan.engines import textract as engine

        return engine.scan(pdf or image_jpeg, hints, settings)
    if name == "rapidocr":
        from app.receipts.scan.engines import rapid as engine
    elif name == "tesseract":
        from app.receipts.scan.engines import tesseract as engine
    else:
        from app.receipts.scan.engines import vision as engine
    return engine.scan(image_jpeg, hints, settings)
