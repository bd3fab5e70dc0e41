"""The receipts' named errors (their codes and messages written once; app/errors.py holds
the base classes and the shared errors)."""
from __future__ import annotations

from typing import Optional

from app.errors import Conflict, Forbidden, RateLimited


def receipt_confirmed(expense_id: Optional[str] = None) -> Conflict:
    """The receipt was confirmed already: a replay never creates a second expense."""
    details = {"expenseId": expense_id} if expense_id else None
    return Conflict("This receipt was already confirmed into an expense.",
                    code="RECEIPT_CONFIRMED", details=details)


def receipt_not_ready(status: str) -> Conflict:
    return Conflict(f"The receipt is {status}, not READY.", code="RECEIPT_NOT_READY",
                    details={"status": status})


def receipt_attached(expense_id: str) -> Conflict:
    return Conflict("The receipt is attached to another expense.", code="RECEIPT_ATTACHED",
                    details={"expenseId": expense_id})


def attachment_limit(limit: int) -> Conflict:
    return Conflict(f"An expense holds at most {limit} receipts; detach one first.",
                    code="ATTACHMENT_LIMIT", details={"limit": limit})


def scan_in_progress() -> Conflict:
    return Conflict("The receipt is being scanned; wait for the result.",
                    code="SCAN_IN_PROGRESS")


def scan_not_done() -> Conflict:
    return Conflict("The receipt has no finished scan to confirm; send the expense, or scan "
                    "it first.", code="SCAN_NOT_DONE")


def receipt_limit(what: str, limit: int) -> RateLimited:
    return RateLimited(f"At most {limit} {what} per day.", code="RECEIPT_LIMIT",
                       retry_after=3600, details={"limit": limit})


def scan_needs_account() -> Forbidden:
    """A share-link session asked for a scan: credits are an account's, and a guest's session
    spends no one else's (docs/share-links.md)."""
    return Forbidden("A receipt scan spends its caller's credits and a share-link session has "
                     "none: sign in and claim this guest to scan, or enter the expense.",
                     details={"reason": "SCAN_NEEDS_ACCOUNT"})
