"""The notifications area's named errors (its own; app/errors.py holds the shared ones)."""
from __future__ import annotations

from app.errors import NotFound


def web_push_disabled() -> NotFound:
    return NotFound("This deployment sends no Web Push (no VAPID key is configured).",
                    code="WEB_PUSH_DISABLED")
