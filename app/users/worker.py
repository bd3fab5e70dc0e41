"""The ProfileMirrorWorker's one message: mirror the account's name onto its rosters."""
from __future__ import annotations

from app.users.mirror import mirror_names


def handle(message: dict) -> int:
    """Mirror ``{"userId"}``'s current name (app.users.mirror); raises when a write failed,
    so the queue redelivers this message alone."""
    return mirror_names(message["userId"])
