"""What of a receipt goes when what holds it goes: an expense, a group, an account.

The ledger and the group sweep sit below receipts: they call app.core.cascades, into which
this module registers when it loads (each entry point that deletes loads it); account
deletion, above receipts, calls :func:`uploads_of` itself. Object deletes are idempotent (a
rerun of any of those sweeps deletes nothing twice and misses nothing); uploads never
completed also expire by the bucket's lifecycle rule after a day."""
from __future__ import annotations

from typing import Iterable

from app import blobs
from app.core import cascades
from app.logs import logger
from models.groups.ledger import attachments_of
from models.groups.receipts import Receipt


def _s3():
    import boto3

    return blobs.cached("cleanup", lambda: boto3.client("s3", **blobs.client_options()))


def delete_prefix(prefix: str) -> int:
    """Every object under ``prefix`` (listed page by page, deleted a page at a time)."""
    s3, removed, more = _s3(), 0, {}
    try:
        while True:
            page = s3.list_objects_v2(Bucket=blobs.bucket(), Prefix=prefix, **more)
            found = [{"Key": item["Key"]} for item in page.get("Contents", [])]
            if found:
                s3.delete_objects(Bucket=blobs.bucket(), Delete={"Objects": found, "Quiet": True})
                removed += len(found)
            if not page.get("IsTruncated"):
                break
            more = {"ContinuationToken": page["NextContinuationToken"]}
    except s3.exceptions.NoSuchBucket:
        # No bucket, no objects: a stage (or a test) that never stored a receipt.
        logger.warning("receipts.no_bucket")
    return removed


def delete_receipt(group_id: str, receipt_id: str) -> None:
    """Every object one receipt can have (known keys: no listing)."""
    found = [{"Key": blobs.key(group_id, receipt_id, name)} for name in blobs.NAMES]
    _s3().delete_objects(Bucket=blobs.bucket(), Delete={"Objects": found, "Quiet": True})


def delete_group(group_id: str) -> int:
    """Every object of a group's receipts, uploads too (idempotent)."""
    return delete_prefix(blobs.group_prefix(group_id, blobs.UPLOADS)) + \
        delete_prefix(blobs.group_prefix(group_id))


@cascades.expense_deleting.register
def with_expense(tx, expense) -> None:
    """The attached receipts' rows (up to MAX_ATTACHMENTS) go in the expense delete's own
    transaction."""
    for receipt_id, _ in attachments_of(expense):
        tx.delete(Receipt(*Receipt.key(expense.GroupId, receipt_id)))


@cascades.expense_deleted.register
def after_expense(expense) -> None:
    """After that transaction committed: the receipts' objects."""
    for receipt_id, _ in attachments_of(expense):
        delete_receipt(expense.GroupId, receipt_id)


@cascades.group_sweeping.register
def before_group_sweep(group_id: str) -> int:
    """A deleted group's objects, before its rows (a rerun still finds the rows, so it
    still deletes the objects: nothing of a receipt outlives its row)."""
    if next(iter(Receipt.of_group(group_id, limit=1, consistent_read=True)), None) is None:
        return 0
    return delete_group(group_id)


def uploads_of(user_id: str, group_ids: Iterable[str], page_size: int = 100) -> int:
    """A deleted account's receipts that no expense holds (uploaded, scanned, never
    attached), row and objects, in the groups it is leaving; attached ones are the
    group's, like the expense itself."""
    removed = 0
    for group_id in group_ids:
        for receipt in Receipt.of_group(
                group_id, consistent_read=True, page_size=page_size,
                filter_condition=(Receipt.UploaderUserId == user_id)
                & Receipt.AttachedExpenseId.does_not_exist()):
            delete_receipt(group_id, receipt.ReceiptId)
            receipt.delete(add_version_condition=False)
            removed += 1
    return removed
