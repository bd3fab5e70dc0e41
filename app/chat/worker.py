"""The ChatWorker's one message: draft the admitted chat message it names."""
from __future__ import annotations

from app.chat.drafting import process


def handle(message: dict, settings) -> str:
    """Run one admitted message (app.chat.admission.work_item) to DONE or FAILED with the
    handler's settings; returns what happened (for logs and tests)."""
    return process(message, settings)
