"""The calendar-date format (``YYYY-MM-DD``) that schemas document and services enforce."""
from __future__ import annotations

from datetime import date as Date
from typing import Any


def is_calendar_date(value: Any) -> bool:
    """True for ``YYYY-MM-DD`` naming a real day."""
    try:
        return isinstance(value, str) and len(value) == 10 and bool(Date.fromisoformat(value))
    except ValueError:
        return False
