"""Count a JPEG's scans (SOS markers) from its bytes, without decoding anything.

A progressive JPEG's decoder does a pass over every block of the picture for each scan, so
the work is pixels x scans, and scans cost a few bytes each: 4,000 repeated scans of a
plain 2000x2000 picture fit in 80 KB and take seconds to decode. Ingest refuses a file with
more scans than any camera writes (app.limits.MAX_JPEG_SCANS) before it is decoded.

The walk reads markers as libjpeg does, so a scan cannot hide from it: a 0xFF followed by
0x00 is a stuffed data byte, runs of 0xFF are fill before a marker, RSTn, TEM and SOI stand
alone, every other marker carries a length that libjpeg itself follows, and bytes between
segments (a scan's entropy-coded data, or garbage) are skipped up to the next marker, which
is where libjpeg resumes too. It stops at the first EOI: the end of what is decoded."""
from __future__ import annotations

import re

# The next marker that carries a length: 0xFF, then a code that is not a stuffed 0x00, fill
# (0xFF), TEM (0x01), RST0-7 (0xD0-0xD7) or SOI (0xD8). A regex finds it in C: walking
# byte by byte in Python would make a file of stuffed 0xFF00 pairs its own slow path.
_NEXT_SEGMENT = re.compile(rb"\xff[^\x00\x01\xd0-\xd8\xff]")
_EOI, _SOS = 0xD9, 0xDA


def scans(data: bytes, stop_after: int) -> int:
    """The SOS markers before the first EOI; stops counting once past ``stop_after``."""
    count, pos = 0, 2  # past SOI
    while True:
        found = _NEXT_SEGMENT.search(data, pos)
        if found is None:
            return count
        code, pos = data[found.start() + 1], found.end()
        if code == _EOI:
            return count
        length = int.from_bytes(data[pos:pos + 2], "big")
        if length < 2:
            return count  # libjpeg refuses the file here: nothing after it is decoded
        pos += length
        if code == _SOS:
            count += 1
            if count > stop_after:
                return count
