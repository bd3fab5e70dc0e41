"""What a scan is told (hints) and what it answers (one result shape for every engine)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple

FIELDS = ("merchant", "date", "total", "items")


@dataclass(frozen=True)
class ScanHints:
    """What the group already knows: its currency (amounts are minor units of the scan's
    currency, this one when the receipt names none), the expense date (YYYY-MM-DD, resolves
    03/04 against 04/03) and the caller's locale (``en-US`` reads month first)."""

    currency: str
    date: Optional[str] = None
    locale: Optional[str] = None


@dataclass(frozen=True)
class ScanResult:
    """Fields read from one receipt image. ``total`` and item amounts are integer minor units
    of ``currency`` (its ISO 4217 exponent), as are the extras'; ``confidence`` holds a 0..1 float for each of
    merchant, date, total and items (0 where nothing was found)."""

    engine: str
    merchant: Optional[str] = None
    date: Optional[str] = None  # YYYY-MM-DD
    total: Optional[int] = None
    currency: Optional[str] = None
    # False: the receipt printed no currency, and ``currency`` is the hint (the group's).
    currency_printed: bool = True
    items: Tuple[Tuple[str, int], ...] = ()
    # Tax, tip, service and discount lines that apply on top of the items: (name, signed
    # amount, kind); the items and these add up to the total when the receipt does.
    extras: Tuple[Tuple[str, int, str], ...] = ()
    confidence: dict = field(default_factory=lambda: dict.fromkeys(FIELDS, 0.0))


class ScanError(Exception):
    """The engine produced nothing usable; the scan fails (and its credits are refunded).

    ``code`` is one of UNAVAILABLE (engine missing or not answering), TIMEOUT, MALFORMED
    (an answer we cannot read), REFUSED (the model refused): logged and stored, never the
    engine's own text."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code
