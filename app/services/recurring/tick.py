"""The hourly tick: materialise due recurring expenses and create reminders (a later issue)."""
from __future__ import annotations

from typing import Optional

from app.logs import logger


def run_tick(now: Optional[str] = None) -> dict:
    """Counts of what one tick did; templates and materialisation come with their issue."""
    result = {"materialised": 0, "reminders": 0}
    logger.info("hourly_tick", extra=result)
    return result
