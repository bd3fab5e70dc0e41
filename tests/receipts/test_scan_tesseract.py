"""The Tesseract engine: an optional engine, used when its binary is installed. Reading a
real image needs the binary (those tests skip, saying so, where it is absent); the TSV
reading, the input check and the missing-binary answer are tested everywhere."""
from __future__ import annotations

import pytest

from app.config import Settings
from app.receipts.scan import ScanError, ScanHints, scan_receipt
from app.receipts.scan.engines import tesseract
from app.receipts.scan.rows import Box, rows
from tests.receipts.test_scan_local import BERLIN_CAFE, US_DINER, render_receipt

SETTINGS = Settings(receipt_scan_engine="tesseract")
needs_binary = pytest.mark.skipif(
    tesseract.binary() is None,
    reason="the tesseract binary is not installed (optional engine: apt-get install tesseract-ocr)")

TSV = "\n".join([
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
    "1\t1\t0\t0\t0\t0\t0\t0\t600\t510\t-1\t",
    "4\t1\t1\t1\t1\t0\t32\t36\t154\t20\t-1\t",
    "5\t1\t1\t1\t1\t1\t32\t36\t69\t20\t96.5\tCAFE",
    "5\t1\t1\t1\t1\t2\t114\t36\t72\t20\t96.5\tLUNA",
    "5\t1\t2\t1\t1\t1\t32\t185\t160\t27\t96.3\tCappuccino",
    "5\t1\t3\t1\t1\t1\t510\t186\t58\t24\t96.8\t3,20",
    "5\t1\t3\t1\t1\t2\t510\t220\t58\t24\t12.0\t~%",
])


def test_tsv_words_keep_their_boxes_and_drop_low_confidence_noise():
    words = tesseract.words(TSV)
    assert words[0] == Box("CAFE", 32, 36, 101, 56)
    assert [w.text for w in words] == ["CAFE", "LUNA", "Cappuccino", "3,20"]
    # Different blocks (Tesseract split the price column off) still make one printed row.
    assert rows(words) == ["CAFE LUNA", "Cappuccino 3,20"]


def test_output_that_is_not_tsv_is_malformed():
    with pytest.raises(ScanError) as raised:
        tesseract.words("Error opening data file eng.traineddata")
    assert raised.value.code == "MALFORMED"


def test_bytes_that_are_not_an_image_never_reach_tesseract(tmp_path):
    """Tesseract would read a text input as a list of image paths to open."""
    listing = str(tmp_path / "elsewhere.png").encode()
    with pytest.raises(ScanError) as raised:
        scan_receipt(listing, ScanHints("EUR"), SETTINGS)
    assert raised.value.code == "MALFORMED"


def test_without_the_binary_the_engine_is_unavailable(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ScanError) as raised:
        scan_receipt(render_receipt(BERLIN_CAFE[:2]), ScanHints("EUR"), SETTINGS)
    assert raised.value.code == "UNAVAILABLE"


@needs_binary
def test_a_rendered_receipt_is_read_by_tesseract():
    result = scan_receipt(render_receipt(BERLIN_CAFE), ScanHints("EUR"), SETTINGS)
    assert result.engine == "tesseract"
    assert (result.merchant, result.date, result.total, result.currency) == (
        "CAFE LUNA", "2026-03-14", 760, "EUR")
    assert result.items == (("Cappuccino", 320), ("Croissant", 250), ("Wasser", 190))


@needs_binary
def test_tesseract_reads_a_us_receipt_month_first():
    result = scan_receipt(render_receipt(US_DINER), ScanHints("USD"), SETTINGS)
    assert (result.date, result.total, result.currency) == ("2026-03-04", 1164, "USD")


@needs_binary
def test_a_missing_language_fails_the_scan_with_a_code():
    with pytest.raises(ScanError) as raised:
        scan_receipt(render_receipt(BERLIN_CAFE[:2]), ScanHints("EUR"),
                     SETTINGS._replace(receipt_tesseract_langs="xyz"))
    assert raised.value.code == "MALFORMED"
