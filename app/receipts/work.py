"""Handing receipt work (an ingest, a scan) to the receipt worker, and running it.

Deployed, the "receipt" queue (RECEIPT_QUEUE_URL, template.yaml's ReceiptQueue;
app.core.handoff) feeds the ReceiptWorker, which runs app.receipts.worker.handle per message; local mode installs a runner that feeds the
same handler an SQS-shaped event on a thread (app.local.triggers). With neither (tests, a
one-shot command) the work runs in the caller, so nothing waits for a sweep. A lost scan
hand-off is re-driven by :func:`app.receipts.scanning.reconcile` from the work
pointer it shares with chat (models.users.ChatWork); a lost ingest by the next complete."""
from __future__ import annotations

from typing import Callable

from app.logs import logger
from app.core import handoff

QUEUE = handoff.Queue("receipt", lambda settings: settings.receipt_queue_url)
INGEST, SCAN = "ingest", "scan"


def ingest_item(group_id: str, receipt_id: str) -> dict:
    return {"kind": INGEST, "groupId": group_id, "receiptId": receipt_id}


def scan_item(group_id: str, receipt_id: str) -> dict:
    return {"kind": SCAN, "groupId": group_id, "receiptId": receipt_id}


def hand_off(item: dict, run_here: Callable[[], object]) -> None:
    """Give ``item`` to the worker: the queue, the local runner, or ``run_here()`` now."""
    try:
        if handoff.send(QUEUE, item) != handoff.NOWHERE:
            return
    except Exception:  # noqa: BLE001 — complete again (ingest) or the sweep (scan) recovers
        logger.exception("receipts.handoff_failed", extra={"kind": item.get("kind")})
        return
    run_here()
