"""The image half of ingest: bytes in, a clean JPEG and its thumbnail out, or a refusal.

The real type is sniffed from the bytes (never the declared one); only JPEG, PNG, WebP and
HEIC/HEIF open (pillow-heif registers the HEIF opener); a PDF is read by app.receipts.pdfs,
whose first page comes back here as a picture (:func:`kept`). The pixel count is checked from the header before
anything is decoded (``Image.MAX_IMAGE_PIXELS`` is set to the same bound, so Pillow itself
refuses a bomb that slips past), the orientation is applied, and the pixels are copied into
a fresh image before encoding, so no metadata block (EXIF, GPS, XMP, ICC) can survive.

Pixels and bytes do not bound the decoding work: a progressive JPEG costs a pass over the
picture per scan. A JPEG's scans are counted before it is decoded (app.receipts.
jpeg_scans; more than app.limits.MAX_JPEG_SCANS is TOO_COMPLEX), and the decoding runs
under a CPU budget: Pillow feeds the decoder DECODE_BLOCK bytes at a time from a reader that
checks, before each read, the CPU time this thread has spent since the decode began, and
refuses (TOO_COMPLEX) past DECODE_CPU_SECONDS. It is checked in the worker's own thread, so
it works the same in the Lambda and in local mode's worker thread, with nothing to kill."""
from __future__ import annotations

import io
import time
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from app.limits import MAX_JPEG_SCANS, MAX_RECEIPT_BYTES
from app.receipts import jpeg_scans

MAX_BYTES = MAX_RECEIPT_BYTES
MAX_PIXELS = 40_000_000  # a 48 MP phone photo is 8064x6048; receipts need far less
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
LONG_SIDE = 3000  # what is kept: enough for OCR, a bound on storage
THUMBNAIL_SIDE = 320
FORMATS = ("JPEG", "PNG", "WEBP", "HEIF")
JPEG_QUALITY = 85
JPEG_FORMATS = ("JPEG", "MPO")  # MPO: Pillow's name for a JPEG carrying a second picture
# The worst file the caps let through (40 MP, 100 scans) decodes in ~2.5 s of CPU; the
# worker has one vCPU and 120 s, so a decode still running at 20 s is refused, not timed out.
DECODE_CPU_SECONDS = 20.0
# Input per decoder call: the budget is checked between calls, and the scan cap bounds the
# work one call can do (~0.2 s at 40 MP); 4 KB costs nothing measurable against 64 KB.
DECODE_BLOCK = 4096

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


class _OverBudget(Exception):
    pass


class _Budgeted(io.BytesIO):
    """The upload's bytes, refused to a decoder that has spent its CPU budget."""

    def __init__(self, data: bytes, seconds: float) -> None:
        super().__init__(data)
        self._ends = time.thread_time() + seconds

    def read(self, size=-1) -> bytes:
        if time.thread_time() > self._ends:
            raise _OverBudget
        return super().read(size)


def _too_complex(what: str) -> Refused:
    return Refused("TOO_COMPLEX", f"The image {what}; save it again as an ordinary photo.")


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
    """The cleaned image, or Refused (TOO_LARGE, EMPTY, UNSUPPORTED_TYPE, TOO_MANY_PIXELS,
    TOO_COMPLEX, CORRUPT). A PDF is not an image: ingest hands it to app.receipts.pdfs."""
    if len(data) > MAX_BYTES:
        raise Refused("TOO_LARGE", f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB.")
    if not data:
        raise Refused("EMPTY", "The file is empty.")
    _register_heif()
    try:
        source = Image.open(_Budgeted(data, DECODE_CPU_SECONDS), formats=FORMATS)
    except (UnidentifiedImageError, ValueError):
        raise Refused("UNSUPPORTED_TYPE",
                      "The file is not a JPEG, PNG, WebP or HEIC image.") from None
    except Image.DecompressionBombError:
        raise Refused("TOO_MANY_PIXELS", f"The image has more than {MAX_PIXELS} pixels.") from None
    except OSError:
        raise Refused("CORRUPT", "The image could not be read.") from None
    except _OverBudget:  # the budget runs from before the open
        raise _too_complex(f"needs more than {DECODE_CPU_SECONDS:g} s to decode") from None
    with source:
        if source.width * source.height > MAX_PIXELS:
            raise Refused("TOO_MANY_PIXELS", f"The image has more than {MAX_PIXELS} pixels.")
        if source.format in JPEG_FORMATS and jpeg_scans.scans(data, MAX_JPEG_SCANS) > MAX_JPEG_SCANS:
            raise _too_complex(f"has more than {MAX_JPEG_SCANS} scans (progressive passes)")
        source.decodermaxblock = DECODE_BLOCK
        try:
            source.load()
            upright = ImageOps.exif_transpose(source)
        except Image.DecompressionBombError:
            raise Refused("TOO_MANY_PIXELS",
                          f"The image has more than {MAX_PIXELS} pixels.") from None
        except (OSError, ValueError, SyntaxError):
            raise Refused("CORRUPT", "The image could not be read.") from None
        except _OverBudget:
            raise _too_complex(f"needs more than {DECODE_CPU_SECONDS:g} s to decode") from None
        fresh = _fresh(upright)
        fmt = source.format or "UNKNOWN"
    return kept(fresh, fmt)


def kept(picture: Image.Image, fmt: str) -> Clean:
    """What is stored of a decoded picture (an RGB image of its pixels alone): at most
    LONG_SIDE on its long side, and its thumbnail."""
    kept = picture
    kept.thumbnail((LONG_SIDE, LONG_SIDE))
    thumb = kept.copy()
    thumb.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE))
    return Clean(image=_encode(kept), thumbnail=_encode(thumb), width=kept.width,
                 height=kept.height, source_format=fmt)
