"""The ReceiptWorker's one message: an ingest or a scan (app.receipts.work)."""
from __future__ import annotations

from app.receipts import ingest, scanning
from app.receipts.work import SCAN


def handle(message: dict, settings) -> str:
    """Run one queued item; returns what happened (for logs and tests)."""
    if message.get("kind") == SCAN:
        return scanning.run(message["groupId"], message["receiptId"], settings)
    return ingest.ingest(message["groupId"], message["receiptId"])
