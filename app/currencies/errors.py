"""The currencies area's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import Unprocessable


def rate_unavailable(base: str, quote: str, date: str) -> Unprocessable:
    """No reference rate is known for this pair on or before this day: the client sends one."""
    return Unprocessable(f"No reference rate from {base} to {quote} is known for {date}.",
                         code="RATE_UNAVAILABLE",
                         details={"currency": base, "groupCurrency": quote, "date": date,
                                  "hint": "Send exchangeRate (a decimal string) or groupAmount."})
