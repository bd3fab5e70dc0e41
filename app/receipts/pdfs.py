"""The PDF half of ingest: a PDF receipt's own text and its first page as a picture, or a
refusal (ENCRYPTED, CORRUPT, TOO_MANY_PAGES, TOO_COMPLEX).

PDFium (pypdfium2's self-contained wheel) opens the bytes; the page count is read before
any page is (more than app.limits.MAX_PDF_PAGES: TOO_MANY_PAGES), a PDF that needs a
password is ENCRYPTED and one PDFium cannot parse CORRUPT. The text of its pages is what an
e-mailed receipt or an invoice carries: when there is some, the scan parses it as printed
(no OCR); a scanned paper receipt saved as a PDF has none, and the scan reads its first
page's picture with the OCR engine. The first page is rendered either way: it is the
picture kept for viewing and OCR, and the thumbnail.

Bounds, the PDF's equivalent of a JPEG's scan count and decode budget: the file is 10 MB at
most (ingest); pages are counted first; a page is rendered at a scale that makes its long
side RENDER_LONG_SIDE pixels whatever size the page declares (a 200-inch MediaBox renders
no larger than a letter page), so memory and fill work are bounded by pixels, not by what
the file claims; and the thread's CPU time is checked before each page's text and before
the render, refused past PDF_CPU_SECONDS (TOO_COMPLEX). PDFium's own calls cannot be
interrupted mid-call, but the render is progressive (PDFium asks between drawing steps
whether to pause, and is told to once the budget is spent), so the costly part stops at the
budget: a 10 MB page of 450,000 vector strokes, the most drawing a file under the size cap
holds, took ~23 s of CPU to render in one call and is refused at the budget instead;
loading that page and its text took 0.2 s and 0.06 s."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import List

from app.limits import MAX_PDF_PAGES
from app.receipts.images import Refused

RENDER_LONG_SIDE = 2000  # pixels: enough for OCR of a receipt page, a bound on the work
MAX_RENDER_SCALE = 4.0  # a small page (a till slip's 80 mm) at most 288 dpi
PDF_CPU_SECONDS = 20.0
MAX_TEXT_CHARS = 100_000  # what the parser reads: a receipt is a few thousand
MIN_TEXT_CHARS = 3  # letters or digits: fewer is a page of pictures, read by OCR
PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD


# What the pictures we read start with: a photo whose metadata happens to hold "%PDF-" in
# its first KB is still a photo.
PICTURE_MAGIC = (b"\xff\xd8", b"\x89PNG", b"RIFF", b"\x00\x00\x00")


def is_pdf(data: bytes) -> bool:
    """PDF readers accept the header anywhere in the first KB; so does this sniff, for a
    file that does not start as a picture does."""
    return b"%PDF-" in data[:1024] and not data.startswith(PICTURE_MAGIC)


@dataclass(frozen=True)
class Read:
    text: str  # the pages' own text ("" when they have none)
    first_page: object  # a PIL RGB image of page 1
    pages: int


def _too_complex() -> Refused:
    return Refused("TOO_COMPLEX", f"The PDF needs more than {PDF_CPU_SECONDS:g} s to read; "
                                  "save it again (print to PDF) or upload a photo.")


def read(data: bytes) -> Read:
    """The PDF's text and its first page rendered, or Refused."""
    import pypdfium2 as pdfium

    ends = time.thread_time() + PDF_CPU_SECONDS
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == PASSWORD_ERROR:
            raise Refused("ENCRYPTED", "The PDF needs a password to open; save it again "
                                       "without one.") from None
        raise Refused("CORRUPT", "The PDF could not be read.") from None
    try:
        pages = len(document)
        if pages > MAX_PDF_PAGES:
            raise Refused("TOO_MANY_PAGES", f"The PDF has {pages} pages; a receipt has at "
                                            f"most {MAX_PDF_PAGES}.")
        if pages == 0:
            raise Refused("CORRUPT", "The PDF has no page.")
        texts: List[str] = []
        for index in range(pages):
            if time.thread_time() > ends:
                raise _too_complex()
            texts.append(_text(document, index))
            if sum(len(t) for t in texts) > MAX_TEXT_CHARS:
                break
        if time.thread_time() > ends:
            raise _too_complex()
        first = _render(document, ends)
    except pdfium.PdfiumError:
        raise Refused("CORRUPT", "The PDF could not be read.") from None
    finally:
        document.close()
    text = "\n".join(texts)[:MAX_TEXT_CHARS]
    if sum(ch.isalnum() for ch in text) < MIN_TEXT_CHARS:
        text = ""
    return Read(text=text, first_page=first, pages=pages)


def _text(document, index: int) -> str:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            return textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
        finally:
            textpage.close()
    finally:
        page.close()


def _render(document, ends: float):
    """Page 1 at RENDER_LONG_SIDE pixels on its long side, rendered progressively: PDFium
    asks between drawing steps whether to pause, the answer is yes once the thread's CPU
    time passes ``ends``, and a paused render is abandoned (TOO_COMPLEX)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    page = document[0]
    try:
        width, height = page.get_size()
        if not (width > 0 and height > 0):
            raise Refused("CORRUPT", "The PDF's first page has no size.")
        scale = min(RENDER_LONG_SIDE / max(width, height), MAX_RENDER_SCALE)
        pixels = (max(1, math.ceil(width * scale)), max(1, math.ceil(height * scale)))
        bitmap = pdfium.PdfBitmap.new_native(*pixels, format=pdfium_c.FPDFBitmap_BGR)
        try:
            bitmap.fill_rect((255, 255, 255, 255), 0, 0, *pixels)
            pause = pdfium_c.IFSDK_PAUSE(version=1)
            callback = type(pause.NeedToPauseNow)(lambda _: int(time.thread_time() > ends))
            pause.NeedToPauseNow = callback  # kept referenced until the render closes
            status = pdfium_c.FPDF_RenderPageBitmap_Start(
                bitmap, page, 0, 0, *pixels, 0, pdfium_c.FPDF_ANNOT, pause)
            while status == pdfium_c.FPDF_RENDER_TOBECONTINUED:
                if time.thread_time() > ends:
                    raise _too_complex()
                status = pdfium_c.FPDF_RenderPage_Continue(page, pause)
            pdfium_c.FPDF_RenderPage_Close(page)
            if status != pdfium_c.FPDF_RENDER_DONE:
                raise Refused("CORRUPT", "The PDF's first page could not be drawn.")
            return bitmap.to_pil().convert("RGB")
        finally:
            bitmap.close()
    finally:
        page.close()


def lines_of(text: str) -> List[str]:
    """The printed rows of a PDF's text, as the parser reads them."""
    return [line for line in (row.strip() for row in text.splitlines()) if line]
