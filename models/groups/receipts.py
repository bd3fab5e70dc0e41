"""Receipt rows: one photo of a group's receipt, from upload to an attached expense.

The row lives in the group's partition (``RECEIPT#<receiptId>``); its objects live in the
receipts bucket under keys made of the group and receipt ids only (app.blobs). Status runs
UPLOADING -> PROCESSING -> READY | FAILED; a scan adds ScanStatus PENDING -> WORKING ->
DONE | FAILED; a confirmation sets ConfirmedExpenseId in the expense's own transaction."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import NumberAttribute, UnicodeAttribute

from models.groups.base import GroupItem
from models.groups.keys import RECEIPT_PREFIX

UPLOADING, PROCESSING, READY, FAILED = "UPLOADING", "PROCESSING", "READY", "FAILED"
STATUSES = (UPLOADING, PROCESSING, READY, FAILED)
SCAN_PENDING, SCAN_WORKING, SCAN_DONE, SCAN_FAILED = "PENDING", "WORKING", "DONE", "FAILED"


class Receipt(GroupItem, discriminator="RECEIPT"):
    """A receipt photo and what became of it."""

    ReceiptId = UnicodeAttribute()
    UploaderUserId = UnicodeAttribute(null=True)
    DeclaredType = UnicodeAttribute()
    DeclaredSize = NumberAttribute()
    Status = UnicodeAttribute(default=UPLOADING)
    Reason = UnicodeAttribute(null=True)  # FAILED: why, a stable code
    ReasonText = UnicodeAttribute(null=True)  # and in words (never the file's content)
    UploadEndsAt = UnicodeAttribute()  # the upload's presigned POST ends here
    # The table's TTL (unix seconds): an upload never completed goes 24 h after it began;
    # complete removes it, so a receipt that got its file stays.
    ExpiresAt = NumberAttribute(null=True)
    Width = NumberAttribute(null=True)
    Height = NumberAttribute(null=True)
    ImageBytes = NumberAttribute(null=True)
    # What ingest found (sniffed, never the declared type): image/jpeg (every picture is
    # kept as a JPEG) or application/pdf; absent on rows older than PDFs (pictures).
    ContentType = UnicodeAttribute(null=True)
    Pages = NumberAttribute(null=True)  # a PDF's page count
    HasText = NumberAttribute(null=True)  # 1: a PDF with its own text (blobs.TEXT)
    # The expense the receipt is attached to (confirm or PUT .../receipt).
    AttachedExpenseId = UnicodeAttribute(null=True)
    # The saved marker: set in the confirming expense's transaction, never cleared.
    ConfirmedExpenseId = UnicodeAttribute(null=True)
    # The scan: its status, who asked (and paid), the work pointer, the result (JSON).
    ScanStatus = UnicodeAttribute(null=True)
    ScanUserId = UnicodeAttribute(null=True)
    ScanCost = NumberAttribute(null=True)
    ScanClaimedAt = UnicodeAttribute(null=True)
    ScanAttempts = NumberAttribute(null=True)
    ScanWorkKey = UnicodeAttribute(null=True)
    ScanResult = UnicodeAttribute(null=True)
    ScanFailure = UnicodeAttribute(null=True)
    Version = NumberAttribute(default=1)

    @staticmethod
    def sort_key(receipt_id: str) -> str:
        return f"{RECEIPT_PREFIX}{receipt_id}"

    @classmethod
    def key(cls, group_id: str, receipt_id: str) -> tuple:
        return group_id, cls.sort_key(receipt_id)

    @classmethod
    def of_group(cls, group_id: str, **kwargs) -> Iterator["Receipt"]:
        return cls.query(group_id, cls.SK.startswith(RECEIPT_PREFIX), **kwargs)

    def scan_pointer_key(self):
        """(hash, range) of the scan's work pointer while it has one."""
        return tuple(self.ScanWorkKey.split("|", 1)) if self.ScanWorkKey else None
