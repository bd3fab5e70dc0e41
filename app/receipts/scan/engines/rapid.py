"""Local OCR with rapidocr (PP-OCR models shipped inside its wheel) on onnxruntime: nothing
is downloaded and nothing leaves the machine. A local/dev dependency (requirements-dev.txt),
never in the Lambda package, so it is imported here on first use only.

One engine per process (loading the models takes seconds), behind a lock: onnxruntime
sessions may run concurrently, but rapidocr's pipeline object keeps per-call state."""
from __future__ import annotations

import threading

from app.receipts.scan.parser import parse_lines
from app.receipts.scan.result import ScanError, ScanHints, ScanResult
from app.receipts.scan.rows import box_of_points, rows

NAME = "rapidocr"
_engine = None
_lock = threading.Lock()


def _load():
    global _engine
    if _engine is None:
        try:
            from rapidocr import RapidOCR
        except ImportError:  # local requirements not installed (the Lambda package)
            raise ScanError("UNAVAILABLE", "rapidocr is not installed") from None
        _engine = RapidOCR(params={"Global.log_level": "error"})
    return _engine


def read_lines(image_jpeg: bytes) -> list:
    """The image's printed rows, top to bottom."""
    with _lock:
        engine = _load()
        try:
            output = engine(image_jpeg)
        except (OSError, ValueError) as error:  # Pillow's UnidentifiedImageError, bad arrays
            raise ScanError("MALFORMED", f"rapidocr could not read the image: {error}") from None
    if output.boxes is None or output.txts is None:
        return []
    return rows(box_of_points(text, points.tolist())
                for points, text in zip(output.boxes, output.txts, strict=True))


def scan(image_jpeg: bytes, hints: ScanHints, settings) -> ScanResult:
    return parse_lines(read_lines(image_jpeg), hints, engine=NAME)
