"""The local engine end to end: a receipt rendered with Pillow in a real TrueType font, read
by rapidocr (its models from its wheel, nothing downloaded), rows rebuilt from the boxes,
then the parser. Also the row rebuilding on its own."""
from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from app.config import Settings
from app.receipts.scan import ScanHints, engine_name, scan_receipt
from app.receipts.scan.rows import Box, box_of_points, rows

FONT_CANDIDATES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                   "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


def font_path() -> str:
    """A real TrueType font on this machine (Debian's fonts-dejavu-core ships with the image)."""
    for candidate in FONT_CANDIDATES:
        if Path(candidate).is_file():
            return candidate
    if shutil.which("fc-match"):
        found = subprocess.run(["fc-match", "-f", "%{file}", "sans:fontformat=TrueType"],
                               capture_output=True, text=True, check=False).stdout.strip()
        if found.endswith(".ttf") and Path(found).is_file():
            return found
    raise AssertionError("no TrueType font found: install fonts-dejavu-core")


def render_receipt(rows_: list, *, width: int = 640, size: int = 28, tilt: float = 0.0) -> bytes:
    """A receipt photo as JPEG bytes: each row a (left text, right-aligned text) pair."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path(), size)
    step = int(size * 1.8)
    image = Image.new("RGB", (width, 40 + step * len(rows_)), "white")
    draw = ImageDraw.Draw(image)
    for n, (left, right) in enumerate(rows_):
        top = 20 + step * n
        draw.text((30, top), left, fill="black", font=font)
        if right:
            draw.text((width - 30 - draw.textlength(right, font=font), top), right, fill="black",
                      font=font)
    if tilt:
        image = image.rotate(tilt, expand=True, fillcolor="white")
    out = io.BytesIO()
    image.save(out, "JPEG", quality=88)
    return out.getvalue()


LOCAL = Settings(local_mode=True)
BERLIN_CAFE = [("CAFE LUNA", ""), ("Hauptstrasse 12, 10115 Berlin", ""),
               ("14.03.2026   12:31", ""), ("Cappuccino", "3,20"), ("Croissant", "2,50"),
               ("Wasser", "1,90"), ("Zwischensumme", "7,60"), ("MwSt 7%", "0,50"),
               ("SUMME EUR", "7,60"), ("Bar", "10,00"), ("Rückgeld", "2,40")]
US_DINER = [("Blue Moon Diner", ""), ("1200 Main St, Austin TX", ""), ("03/04/2026 7:45 PM", ""),
            ("Pancakes", "$8.50"), ("Coffee", "$2.25"), ("Subtotal", "$10.75"),
            ("Tax", "$0.89"), ("TOTAL", "$11.64"), ("Cash", "$20.00"), ("Change", "$8.36")]


def test_local_mode_defaults_to_the_local_engine_and_aws_to_textract():
    assert engine_name(LOCAL) == "rapidocr"
    assert engine_name(Settings()) == "textract"
    assert engine_name(Settings(receipt_scan_engine="tesseract", local_mode=True)) == "tesseract"


@pytest.mark.slow
def test_a_rendered_german_receipt_is_read_offline():
    result = scan_receipt(render_receipt(BERLIN_CAFE), ScanHints("EUR"), LOCAL)
    assert result.engine == "rapidocr"
    assert (result.merchant, result.date, result.total, result.currency) == (
        "CAFE LUNA", "2026-03-14", 760, "EUR")
    assert result.items == (("Cappuccino", 320), ("Croissant", 250), ("Wasser", 190))
    assert result.confidence["total"] == 0.9 and result.confidence["items"] == 0.9


@pytest.mark.slow
def test_a_rendered_us_receipt_tilted_a_little_reads_month_first_and_skips_tax_and_change():
    result = scan_receipt(render_receipt(US_DINER, tilt=1.0), ScanHints("USD"), LOCAL)
    assert (result.merchant, result.date, result.total, result.currency) == (
        "Blue Moon Diner", "2026-03-04", 1164, "USD")
    assert result.items == (("Pancakes", 850), ("Coffee", 225))
    assert result.extras == (("Tax", 89, "TAX"),)  # added on top: with it they sum to the total
    assert result.confidence["items"] == 0.9


def test_rows_are_rebuilt_from_boxes_by_vertical_overlap():
    boxes = [Box("12,90", 400, 301, 460, 329), Box("SUMME", 20, 300, 120, 328),
             Box("Milch", 20, 250, 100, 276), Box("1,09", 410, 252, 460, 279),
             Box("REWE", 20, 10, 140, 50)]
    assert rows(boxes) == ["REWE", "Milch 1,09", "SUMME 12,90"]


def test_a_tilted_row_still_groups_and_its_neighbours_stay_apart():
    # A 2-degree tilt over 400 px drops the price 14 px against a 28 px line height.
    boxes = [Box("Kaffee", 20, 100, 120, 128), Box("2,80", 400, 114, 460, 142),
             Box("Kuchen", 20, 140, 120, 168), Box("3,50", 400, 154, 460, 182)]
    assert rows(boxes) == ["Kaffee 2,80", "Kuchen 3,50"]


def test_polygon_points_become_boxes():
    assert box_of_points("x", [[27, 33], [189, 32], [189, 65], [27, 67]]) == Box("x", 27, 32, 189, 67)


NO_NETWORK_SCAN = """
import socket, sys

def refuse(*args, **kwargs):
    raise OSError("network use during a local scan")

socket.socket.connect = socket.socket.connect_ex = refuse
socket.create_connection = socket.getaddrinfo = refuse
from app.config import Settings
from app.receipts.scan import ScanHints, scan_receipt
result = scan_receipt(sys.stdin.buffer.read(), ScanHints("EUR"), Settings(local_mode=True))
print(result.total)
"""


@pytest.mark.slow
def test_the_local_engine_loads_and_reads_with_every_socket_refused(tmp_path):
    """A fresh process (no engine loaded yet) where any connection attempt raises: the models
    come from the wheel, and nothing is fetched at load or at read."""
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", NO_NETWORK_SCAN], cwd=root,
                          input=render_receipt(BERLIN_CAFE), capture_output=True, timeout=300,
                          check=False, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode().split() == ["760"]


def test_without_rapidocr_installed_the_local_engine_is_unavailable(monkeypatch):
    """The Lambda package carries no rapidocr: choosing it there fails the scan cleanly."""
    import sys

    from app.receipts.scan import ScanError
    from app.receipts.scan.engines import rapid

    monkeypatch.setattr(rapid, "_engine", None)
    monkeypatch.setitem(sys.modules, "rapidocr", None)  # import rapidocr -> ImportError
    with pytest.raises(ScanError) as raised:
        scan_receipt(b"\xff\xd8\xff", ScanHints("EUR"), LOCAL)
    assert raised.value.code == "UNAVAILABLE"


def test_an_unknown_engine_name_fails_the_scan():
    from app.receipts.scan import ScanError

    with pytest.raises(ScanError) as raised:
        scan_receipt(b"\xff\xd8\xff", ScanHints("EUR"), Settings(receipt_scan_engine="easyocr"))
    assert raised.value.code == "UNAVAILABLE"
