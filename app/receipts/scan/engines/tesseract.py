"""Tesseract, when its binary is installed (Debian's ``tesseract-ocr``; languages from
``tesseract-ocr-<lang>`` packages). Run as a subprocess with TSV output: each word with its
box, so rows are rebuilt the same way as rapidocr's, then the one parser.

``--psm 4`` reads the page as one column of text of varying sizes: a receipt, where the
default page segmentation splits a price column off from its labels."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from typing import List

from app.receipts.scan.parser import parse_lines
from app.receipts.scan.result import ScanError, ScanHints, ScanResult
from app.receipts.scan.rows import Box, rows

NAME = "tesseract"
_LANGS = re.compile(r"[a-z_]{3,20}(?:\+[a-z_]{3,20}){0,5}")
MIN_WORD_CONFIDENCE = 30.0
IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n")


def binary():
    """The tesseract executable's path, or None when it is not installed."""
    return shutil.which("tesseract")


def words(tsv: str) -> List[Box]:
    """Word boxes from tesseract's TSV (level 5 rows with text)."""
    found = []
    lines = tsv.splitlines()
    header = lines[0].split("\t") if lines else []
    if header[:1] != ["level"] or "text" not in header:
        raise ScanError("MALFORMED", "tesseract printed no TSV")
    at = {name: i for i, name in enumerate(header)}
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) < len(header) or cells[at["level"]] != "5" or not cells[at["text"]].strip():
            continue
        try:
            left, top = float(cells[at["left"]]), float(cells[at["top"]])
            width, height = float(cells[at["width"]]), float(cells[at["height"]])
            confidence = float(cells[at["conf"]])
        except ValueError:
            continue
        if confidence >= MIN_WORD_CONFIDENCE:
            found.append(Box(cells[at["text"]], left, top, left + width, top + height))
    return found


def read_lines(image_jpeg: bytes, settings) -> List[str]:
    # Tesseract reads an input that is not an image as a list of image file names to open:
    # only image bytes ever reach it.
    if not image_jpeg.startswith(IMAGE_MAGIC):
        raise ScanError("MALFORMED", "not a JPEG or PNG image")
    path = binary()
    if path is None:
        raise ScanError("UNAVAILABLE", "tesseract is not installed")
    langs = settings.receipt_tesseract_langs if _LANGS.fullmatch(
        settings.receipt_tesseract_langs or "") else "eng"
    with tempfile.TemporaryDirectory(prefix="tailspend-scan-") as folder:
        image = os.path.join(folder, "receipt.jpg")
        with open(image, "wb") as out:
            out.write(image_jpeg)
        done = _run([path, image, "stdout", "-l", langs, "--psm", "4", "tsv"], settings)
    if done.returncode != 0:
        # Its stderr names the cause (a missing language, an unreadable image): logged, not shown.
        raise ScanError("MALFORMED", done.stderr.decode(errors="replace")[-300:])
    return rows(words(done.stdout.decode("utf-8", errors="replace")))


def _run(command: List[str], settings) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(command, capture_output=True, timeout=settings.receipt_scan_timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        raise ScanError("TIMEOUT") from None
    except OSError as error:
        raise ScanError("UNAVAILABLE", str(error)) from None


def scan(image_jpeg: bytes, hints: ScanHints, settings) -> ScanResult:
    return parse_lines(read_lines(image_jpeg, settings), hints, engine=NAME)
