"""Daily limits, counted inside the write they limit: 100 receipts per group per day, 20
scans per user per day (on top of the chat credits a scan costs).

Fixed-window counters in RateLimits (TTL reaps them), bumped in the same TransactWrite as
the receipt or the scan it admits, conditioned on being under the limit: parallel requests
can never pass it."""
from __future__ import annotations

from app.receipts.errors import receipt_limit
from app.core.clock import epoch, today
from app.core.transactions import Transaction
from models.rate_limits import RECEIPT_SCAN_SUBJECT, RECEIPT_UPLOAD_SUBJECT, RateCounter

RECEIPTS_PER_GROUP_PER_DAY = 100
SCANS_PER_USER_PER_DAY = 20
_KEEP_SECONDS = 2 * 24 * 3600


def _count(tx: Transaction, subject: str, limit: int, what: str) -> None:
    row = RateCounter(RateCounter.key(subject, today()))
    tx.update(row, [RateCounter.Count.add(1), RateCounter.EntityType.set(RateCounter),
                    RateCounter.ExpiresAt.set(epoch() + _KEEP_SECONDS)],
              condition=RateCounter.Count.does_not_exist() | (RateCounter.Count < limit),
              on_fail=receipt_limit(what, limit))


def count_upload(tx: Transaction, group_id: str) -> None:
    _count(tx, RateCounter.subject(RECEIPT_UPLOAD_SUBJECT, group_id),
           RECEIPTS_PER_GROUP_PER_DAY, "receipts per group")


def count_scan(tx: Transaction, user_id: str) -> None:
    _count(tx, RateCounter.subject(RECEIPT_SCAN_SUBJECT, user_id), SCANS_PER_USER_PER_DAY,
           "receipt scans per user")
