"""PDF receipts made in the test: a hand-written PDF whose page holds text (as an e-mailed
receipt or an invoice does), a photo saved as a PDF (no text: the page is rendered and
read by OCR), and the broken ones (encrypted, malformed, too many pages)."""
from __future__ import annotations

import io
from typing import Sequence

from tests.receipts import images


def _pdf(objects: Sequence[bytes], *, trailer_extra: bytes = b"") -> bytes:
    """A PDF of the given objects (numbered from 1; 1 is the catalog) with a correct xref."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n"
              % (len(objects) + 1, trailer_extra, xref))
    return out.getvalue()


def _escape(text: str) -> bytes:
    return text.encode("latin-1").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def text_pdf(lines: Sequence[str], *, pages: int = 1, trailer_extra: bytes = b"",
             extra_objects: Sequence[bytes] = (), prefix: bytes = b"") -> bytes:
    """Pages of Helvetica text, one printed line per row (every page the same lines), after
    ``prefix`` (content drawn first)."""
    stream = prefix + b"BT /F1 12 Tf 14 TL 40 800 Td " + b"".join(
        b"(" + _escape(line) + b") Tj T* " for line in lines) + b"ET"
    page_ids = [4 + 2 * n for n in range(pages)]
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % p for p in page_ids)
               + b"] /Count %d >>" % pages,
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for page_id in page_ids:
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 842] "
                       b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
                       % (page_id + 1))
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    return _pdf(objects + list(extra_objects), trailer_extra=trailer_extra)


def encrypted_pdf(lines: Sequence[str]) -> bytes:
    """A PDF whose trailer names a standard security handler with a user password: it
    cannot be opened without one."""
    encrypt = (b"<< /Filter /Standard /V 2 /R 3 /Length 128 /P -3904 "
               b"/O <" + b"11" * 32 + b"> /U <" + b"22" * 32 + b"> >>")
    count = 3 + 2
    return text_pdf(lines, extra_objects=[encrypt],
                    trailer_extra=b"/Encrypt %d 0 R /ID [<%s> <%s>] " % (
                        count + 1, b"ab" * 16, b"ab" * 16))


def photo_pdf(lines: Sequence[str], pages: int = 1) -> bytes:
    """A photo of a receipt saved as a PDF (Pillow writes the picture, no text)."""
    from PIL import Image

    page = Image.open(io.BytesIO(images.receipt(lines)))
    out = io.BytesIO()
    page.convert("RGB").save(out, "PDF", save_all=True,
                             append_images=[page.convert("RGB")] * (pages - 1), resolution=100)
    return out.getvalue()
