"""The ImportWorker's one message: run the import it names (app.imports.run_import)."""
from __future__ import annotations

from app.imports.run_import import run_import


def handle(message: dict) -> str:
    """Run (or finish) ``{"groupId", "importId"}``; returns the import's final status. A run
    reports its own failure on the import, so only a crash leaves the message redelivered."""
    return run_import(message["groupId"], message["importId"])
