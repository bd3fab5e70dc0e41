"""The recurring tests' dates are fixed in 2025-2026: pin the day the startDate window is
counted from, so the window (schedule.START_PAST_DAYS) judges them as of that day."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from app.recurring import schedule

PINNED = datetime(2025, 12, 31, 12, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def pinned_window(monkeypatch):
    monkeypatch.setattr(schedule, "window_now", lambda: PINNED)
    return PINNED
