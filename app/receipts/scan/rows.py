"""Printed rows rebuilt from OCR text boxes: OCR engines return words or phrases with their
boxes, and a receipt's label and its price (far apart on one row) come back as two boxes.

Boxes are grouped by vertical overlap: a box joins a row when at least half of the shorter
of the two heights overlaps the row's band; rows are read top to bottom, boxes left to
right. A slight tilt still groups, since one printed row's boxes overlap more than adjacent
rows' do."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Sequence

OVERLAP = 0.5


@dataclass(frozen=True)
class Box:
    text: str
    left: float
    top: float
    right: float
    bottom: float

    @property
    def height(self) -> float:
        return max(self.bottom - self.top, 1e-6)


def box_of_points(text: str, points: Sequence[Sequence[float]]) -> Box:
    """A box from a polygon's corner points (rapidocr gives four, clockwise)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Box(text, min(xs), min(ys), max(xs), max(ys))


def rows(boxes: Iterable[Box]) -> List[str]:
    """The text of each printed row, top to bottom; the boxes of a row joined by spaces."""
    bands: List[List[Box]] = []
    for box in sorted((b for b in boxes if b.text.strip()), key=lambda b: (b.top + b.bottom) / 2):
        best, best_overlap = None, 0.0
        for band in bands:
            top, bottom = min(b.top for b in band), max(b.bottom for b in band)
            shorter = min(box.height, bottom - top)
            overlap = (min(bottom, box.bottom) - max(top, box.top)) / shorter
            if overlap >= OVERLAP and overlap > best_overlap:
                best, best_overlap = band, overlap
        if best is None:
            bands.append([box])
        else:
            best.append(box)
    bands.sort(key=lambda band: sum((b.top + b.bottom) / 2 for b in band) / len(band))
    return [" ".join(b.text.strip() for b in sorted(band, key=lambda b: b.left)) for band in bands]
