"""The receipt worker's run of one queued item: an ingest or a scan."""
from __future__ import annotations

from app.receipts import ingest, scanning
from app.receipts.work import SCAN


def process(item: dict, settings) -> str:
    """Run one item; returns what happened (for logs and tests)."""
    if item.get("kind") == SCAN:
        return scanning.run(item["groupId"], item["receiptId"], settings)
    return ingest.ingest(item["groupId"], item["receiptId"])
