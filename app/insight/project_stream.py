"""The projection's stream entry: a groups-stream batch -> app.insight.projection syncs.

Each record names what to re-read (projection.targets); the sync is from state, so records
are taken in order, each target once per batch. A sync that raises stops the batch there and
reports that record (ReportBatchItemFailures): Lambda retries from it, and what a retry
syncs again is rewritten to the same rows."""
from __future__ import annotations

from typing import List

from app.insight import projection
from app.logs import logger


def project_batch(records: List[dict]) -> dict:
    done: set = set()
    for record in records:
        for target in projection.targets([record]):
            if target in done:
                continue
            try:
                projection.apply(target)
            except Exception:  # noqa: BLE001 — reported: Lambda retries from this record
                sequence = str((record.get("dynamodb") or {}).get("SequenceNumber", ""))
                logger.exception("projection.sync_failed", extra={"sequence": sequence})
                return {"batchItemFailures": [{"itemIdentifier": sequence}]}
            done.add(target)
    # One line a batch (not a record): what a lagging projection is diagnosed from.
    logger.info("projection.batch", extra={"records": len(records), "synced": len(done)})
    return {"batchItemFailures": []}
