"""Receipt images drawn with Pillow in a real TrueType font, with EXIF (GPS too) attached."""
from __future__ import annotations

import io
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


def receipt(lines=LINES, *, fmt: str = "JPEG", orientation: int = 1, size=(700, 900)) -> bytes:
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
        image.save(out, fmt, exif=exif_with_gps(orientation).tobytes())
    else:
        image.save(out, fmt)
    return out.getvalue()


def has_exif(data: bytes) -> bool:
    with Image.open(io.BytesIO(data)) as image:
        return bool(image.getexif()) or "exif" in image.info
