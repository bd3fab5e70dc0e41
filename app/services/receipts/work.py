"""Handing receipt work (an ingest, a scan) to the receipt worker, and running it.

Deployed, RECEIPT_QUEUE_URL names the queue (template.yaml's ReceiptQueue) and the
ReceiptWorker runs app.services.receipts.worker.process per message; local mode installs a runner that feeds the
same handler an SQS-shaped event on a thread (app.local.triggers). With neither (tests, a
one-shot command) the work runs in the caller, so nothing waits for a sweep. A lost scan
hand-off is re-driven by :func:`app.services.receipts.scanning.reconcile` from the work
pointer it shares with chat (models.users.ChatWork); a lost ingest by the next complete."""
from __future__ import annotations

import json
import os
from typing import Callable, Optional

from app.logs import logger

QUEUE_URL_ENV = "RECEIPT_QUEUE_URL"
INGEST, SCAN = "ingest", "scan"
_runner: dict = {}


def use_local_runner(runner: Optional[Callable[[dict], object]]) -> None:
    """Local mode: ``runner(item)`` takes the place of the queue (None: run in the caller)."""
    if runner is None:
        _runner.pop("local", None)
    else:
        _runner["local"] = runner


def ingest_item(group_id: str, receipt_id: str) -> dict:
    return {"kind": INGEST, "groupId": group_id, "receiptId": receipt_id}


def scan_item(group_id: str, receipt_id: str) -> dict:
    return {"kind": SCAN, "groupId": group_id, "receiptId": receipt_id}


def hand_off(item: dict, run_here: Callable[[], object]) -> None:
    """Give ``item`` to the worker: the queue, the local runner, or ``run_here()`` now."""
    url = os.environ.get(QUEUE_URL_ENV)
    try:
        if url:
            import boto3

            boto3.client("sqs").send_message(QueueUrl=url, MessageBody=json.dumps(item))
            return
        if "local" in _runner:
            _runner["local"](item)
            return
    except Exception:  # noqa: BLE001 — complete again (ingest) or the sweep (scan) recovers
        logger.exception("receipts.handoff_failed", extra={"kind": item.get("kind")})
        return
    run_here()
