"""Counting a JPEG's scans from its bytes (app.receipts.jpeg_scans): the walk reads
markers as libjpeg does, so scan data (stuffed 0xFF00, RSTn), fill bytes and marker-like bytes
inside a segment neither hide a scan nor invent one."""
from __future__ import annotations

import io
import re

from PIL import Image

from app.receipts.jpeg_scans import scans
from tests.receipts import images


def _noisy(**options) -> bytes:
    out = io.BytesIO()
    Image.effect_noise((400, 300), 80).convert("RGB").save(out, "JPEG", quality=95, **options)
    return out.getvalue()


def test_scan_data_with_stuffed_bytes_and_restart_markers_is_skipped():
    for progressive, expected in ((False, 1), (True, 10)):
        data = _noisy(progressive=progressive, restart_marker_blocks=4)
        body = data[data.index(b"\xff\xda"):]
        assert b"\xff\x00" in body and re.search(rb"\xff[\xd0-\xd7]", body)  # both cases met
        assert scans(data, 100) == expected


def test_marker_bytes_inside_a_segment_are_not_scans_and_fill_bytes_hide_none():
    sos = b"\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00"
    data = _noisy(progressive=True, comment=sos * 50)  # a COM segment full of "SOS"
    assert scans(data, 100) == 10
    last = data.rindex(b"\xff\xda")
    assert scans(data[:last] + b"\xff\xff\xff" + data[last:], 100) == 10  # fill before a marker


def test_counting_stops_past_the_cap_and_at_eoi():
    assert scans(images.progressive(copies=4000), 100) == 101
    plain = images.progressive()
    assert scans(plain + plain, 100) == 10  # what follows EOI is never decoded
