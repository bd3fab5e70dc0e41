"""Receipt images drawn with Pillow in a real TrueType font, with EXIF (GPS too) attached."""
from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
         Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"))
LINES = ("CORNER BAKERY", "12 Market Street", "Date: 14/03/2026", "", "Croissant      3.20",
         "Coffee         2.80", "Orange juice   4.50", "", "SUBTOTAL      10.50",
         "TOTAL EUR     10.50", "Thank you!")
GPS_IFD = 0x8825


def font(size: int = 34) -> ImageFont.FreeTypeFont:
    for path in FONTS:
        if path.exists():
            return ImageFont.truetype(str(path), size)
    from matplotlib import get_data_path  # a pip-shipped DejaVu, if the system has none

    return ImageFont.truetype(str(Path(get_data_path()) / "fonts/ttf/DejaVuSans.ttf"), size)


def exif_with_gps(orientation: int = 1) -> Image.Exif:
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0112] = orientation
    gps = exif.get_ifd(GPS_IFD)
    gps.update({1: "N", 2: (48.0, 51.0, 29.0), 3: "E", 4: (2.0, 17.0, 40.0)})
    return exif


def receipt(lines=LINES, *, fmt: str = "JPEG", orientation: int = 1, size=(700, 900),
            progressive: bool = False) -> bytes:
    """A white receipt with black text; EXIF with GPS in formats that carry it."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    face = font()
    y = 40
    for line in lines:
        draw.text((40, y), line, fill="black", font=face)
        y += 62
    if orientation == 6:  # stored rotated, as a phone held sideways does
        image = image.transpose(Image.Transpose.ROTATE_90)
    out = io.BytesIO()
    if fmt in ("JPEG", "PNG", "WEBP"):
        options = {"progressive": True} if progressive else {}
        image.save(out, fmt, exif=exif_with_gps(orientation).tobytes(), **options)
    else:
        image.save(out, fmt)
    return out.getvalue()


def has_exif(data: bytes) -> bool:
    with Image.open(io.BytesIO(data)) as image:
        return bool(image.getexif()) or "exif" in image.info


def progressive(size=(2000, 2000), *, copies: int = 0, scan: int = -1) -> bytes:
    """A plain progressive JPEG (Pillow writes 10 scans) with ``copies`` more copies of its
    scan number ``scan`` right after it: each copy is a few bytes and one more pass over
    every block of the picture for the decoder (a "scan bomb")."""
    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, "JPEG", progressive=True)
    data = out.getvalue()
    # Scan data never holds FF DA (a data byte FF is followed by 00) and this picture's tables
    # hold none (ten found: Pillow's ten scans). A scan runs to the next one (tables between
    # scans included) or to EOI.
    starts = [found.start() for found in re.finditer(rb"\xff\xda", data)]
    assert len(starts) == 10, len(starts)
    start, end = starts[scan], (starts[1:] + [len(data) - 2])[scan]
    return data[:end] + data[start:end] * copies + data[end:]
