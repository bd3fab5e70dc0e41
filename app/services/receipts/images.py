"""The image half of ingest: bytes in, a clean JPEG and its thumbnail out, or a refusal.

The real type is sniffed from the bytes (never the declared one); only JPEG, PNG, WebP and
HEIC/HEIF open (pillow-heif registers the HEIF opener). PDFs are refused: Pillow cannot
render a PDF page, and a renderer (poppler, pdfium) is not worth its weight in the Lambda
package for receipts that are photos. The pixel count is checked from the header before
anything is decoded (``Image.MAX_IMAGE_PIXELS`` is set to the same bound, so Pillow itself
refuses a bomb that slips past), the orientation is applied, and the pixels are copied into
a fresh image before encoding, so no metadata block (EXIF, GPS, XMP, ICC) can survive."""
from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from app.limits import MAX_RECEIPT_BYTES

MAX_BYTES = MAX_RECEIPT_BYTES
MAX_PIXELS = 40_000_000  # a 48 MP phone photo is 8064x6048; receipts need far less
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
LONG_SIDE = 3000  # what is kept: enough for OCR, a bound on storage
THUMBNAIL_SIDE = 320
FORMATS = ("JPEG", "PNG", "WEBP", "HEIF")
JPEG_QUALITY = 85

_heif_registered: list = []


def _register_heif() -> None:
    if not _heif_registered:
        from pillow_heif import register_heif_opener

        register_heif_opener()
        _heif_registered.append(True)


class Refused(Exception):
    """The file is not an image we keep; ``reason`` is a stable code, ``message`` says why."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason, self.message = reason, message


@dataclass(frozen=True)
class Clean:
    image: bytes
    thumbnail: bytes
    width: int
    height: int
    source_format: str


def _encode(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def _fresh(image: Image.Image) -> Image.Image:
    """The pixels alone, in RGB: a new image built from raw bytes carries no info block."""
    rgb = image.convert("RGB")
    return Image.frombytes("RGB", rgb.size, rgb.tobytes())


def clean(data: bytes) -> Clean:
    """The cleaned image, or Refused (TOO_LARGE, EMPTY, PDF_UNSUPPORTED, UNSUPPORTED_TYPE,
    TOO_MANY_PIXELS, CORRUPT)."""
    if len(data) > MAX_BYTES:
        raise Refused("TOO_LARGE", f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB.")
    if not data:
        raise Refused("EMPTY", "The file is empty.")
    if data[:5] == b"%PDF-":
        raise Refused("PDF_UNSUPPORTED",
                      "PDF receipts are not read; upload a photo or a screenshot (JPEG, PNG, "
                      "WebP or HEIC).")
    _register_heif()
    try:
        source = Image.open(io.BytesIO(data), formats=FORMATS)
    except (UnidentifiedImageError, ValueError):
        raise Refused("UNSUPPORTED_TYPE",
                      "The file is not a JPEG, PNG, WebP or HEIC image.") from None
    except Image.DecompressionBombError:
        raise Refused("TOO_MANY_PIXELS", f"The image has more than {MAX_PIXELS} pixels.") from None
    except OSError:
        raise Refused("CORRUPT", "The image could not be read.") from None
    with source:
        if source.width * source.height > MAX_PIXELS:
            raise Refused("TOO_MANY_PIXELS", f"The image has more than {MAX_PIXELS} pixels.")
        try:
            source.load()
            upright = ImageOps.exif_transpose(source)
        except Image.DecompressionBombError:
            raise Refused("TOO_MANY_PIXELS",
                          f"The image has more than {MAX_PIXELS} pixels.") from None
        except (OSError, ValueError, SyntaxError):
            raise Refused("CORRUPT", "The image could not be read.") from None
        kept = _fresh(upright)
        fmt = source.format or "UNKNOWN"
    kept.thumbnail((LONG_SIDE, LONG_SIDE))
    thumb = kept.copy()
    thumb.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE))
    return Clean(image=_encode(kept), thumbnail=_encode(thumb), width=kept.width,
                 height=kept.height, source_format=fmt)
