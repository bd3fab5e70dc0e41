"""The AccountDeletionWorker's one message: finish the deletion it names."""
from __future__ import annotations

from app.account.finish_deletion import finish_deletion


def handle(message: dict) -> None:
    """Run the deletion of ``{"userId"}`` (app.account.finish_deletion); raises when the run
    failed, so the queue redelivers this message alone."""
    finish_deletion(message["userId"])
