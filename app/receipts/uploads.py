"""A receipt's upload: the presigned POST, reading it back, and the receipt's own reads.

POST /receipts writes the row (UPLOADING, with the day's counter, under the group and
writer guards) and presigns a POST whose policy pins the key, the declared type and the
declared size; ``complete`` moves it to PROCESSING and hands it to the receipt worker,
which runs :func:`app.receipts.ingest.ingest`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from app import blobs
from app.errors import Invalid, not_found
from app.core.access import Access, require_role
from app.core.clock import epoch, iso_in, new_id, now_iso
from app.core.conditional import update_if
from app.core.transactions import Transaction
from app.ledger import guards as money_guards
from app.limits import MAX_RECEIPT_BYTES
from app.receipts import limits, work
from models.groups.receipts import PROCESSING, UPLOADING, Receipt

CONTENT_TYPES = ("image/jpeg", "image/png", "image/webp", "image/heic", "application/pdf")
# A PROCESSING receipt whose hand-off was lost is handed off again by a later complete, at
# most once per this many seconds (the hand-off stamps UpdatedAt).
REDRIVE_SECONDS = 60
# An upload never completed: its row goes with the table's TTL a day after it began (the
# bucket's lifecycle takes its object after the same day).
UNCOMPLETED_TTL_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Upload:
    """A new receipt and where to POST its file."""

    receipt: Receipt
    upload: dict

    def __getattr__(self, name: str):
        return getattr(self.receipt, name)


def check_declared(content_type: str, size: int) -> None:
    if content_type not in CONTENT_TYPES:
        raise Invalid("Unsupported receipt type.",
                      details={"contentType": [f"One of {', '.join(CONTENT_TYPES)}."]})
    if not 1 <= size <= MAX_RECEIPT_BYTES:
        raise Invalid("A receipt is 1 byte to 10 MB.",
                      details={"size": [f"Between 1 and {MAX_RECEIPT_BYTES}."]})


def create_receipt(access: Access, content_type: str, size: int) -> Upload:
    """A new UPLOADING receipt (MEMBER+, 100 per group per day) and its presigned POST."""
    check_declared(content_type, size)
    receipt_id, at = new_id(), now_iso()
    receipt = Receipt(*Receipt.key(access.group_id, receipt_id), ReceiptId=receipt_id,
                      UploaderUserId=access.user_id, DeclaredType=content_type,
                      DeclaredSize=size, Status=UPLOADING, UploadEndsAt=iso_in(blobs.POST_SECONDS),
                      ExpiresAt=epoch() + UNCOMPLETED_TTL_SECONDS,
                      Version=1, CreatedAt=at, UpdatedAt=at)
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    # Not the group's history: nothing scrubs a receipt that raced the account's deletion,
    # so the caller's profile is checked at commit (require_role's account check).
    require_role(tx, access, "MEMBER")
    limits.count_upload(tx, access.group_id)
    tx.put(receipt, condition=Receipt.SK.does_not_exist())
    money_guards.commit(tx, access.group)
    post = blobs.presigned_post(access.group_id, receipt_id, content_type, size)
    return Upload(receipt, {"url": post["url"], "fields": post["fields"]})


def load_receipt(group_id: str, receipt_id: str) -> Receipt:
    try:
        return Receipt.get(*Receipt.key(group_id, receipt_id), consistent_read=True)
    except (Receipt.DoesNotExist, ValueError):
        raise not_found("Receipt") from None


def complete(access: Access, receipt_id: str) -> Receipt:
    """UPLOADING -> PROCESSING and the ingest handed off; again: harmless (a PROCESSING
    receipt whose hand-off looks lost is handed off once more)."""
    receipt = load_receipt(access.group_id, receipt_id)
    if receipt.Status == UPLOADING:
        moved = update_if(receipt, [Receipt.Status.set(PROCESSING),
                                    Receipt.ExpiresAt.remove(),
                                    Receipt.UpdatedAt.set(now_iso()),
                                    Receipt.Version.add(1)],
                          Receipt.Status == UPLOADING)
        if moved:
            _hand_off(access.group_id, receipt_id)
        return load_receipt(access.group_id, receipt_id)
    if receipt.Status == PROCESSING and (receipt.UpdatedAt or "") < _ago(REDRIVE_SECONDS):
        _redrive(receipt)
    return receipt


def _redrive(receipt: Receipt) -> None:
    """Hand the ingest off again if the last hand-off is still REDRIVE_SECONDS old when this
    write lands. The stamp moves in the same conditional write, so of the completes that read
    a stale stamp (duplicates, concurrent calls) one wins and queues: one more decode per
    window, not one per call."""
    stale = Receipt.UpdatedAt.does_not_exist() | (Receipt.UpdatedAt < _ago(REDRIVE_SECONDS))
    if update_if(receipt, [Receipt.UpdatedAt.set(now_iso()), Receipt.Version.add(1)],
                 (Receipt.Status == PROCESSING) & stale):
        _hand_off(receipt.GroupId, receipt.ReceiptId)


def _hand_off(group_id: str, receipt_id: str) -> None:
    from app.receipts import ingest  # Pillow: loaded only where ingest runs

    work.hand_off(work.ingest_item(group_id, receipt_id),
                  run_here=lambda: ingest.ingest(group_id, receipt_id))


def _ago(seconds: float) -> str:
    return iso_in(-seconds)


def urls(receipt: Receipt) -> dict:
    """Presigned GETs (15 minutes) of a READY receipt's image and thumbnail."""
    if receipt.Status != "READY":
        return {}
    group_id, receipt_id = receipt.GroupId, receipt.ReceiptId
    return {"imageUrl": blobs.presigned_get(group_id, receipt_id, blobs.IMAGE),
            "thumbnailUrl": blobs.presigned_get(group_id, receipt_id, blobs.THUMBNAIL)}


def thumbnail_url(group_id: str, receipt_id: Optional[str]) -> Optional[str]:
    return blobs.presigned_get(group_id, receipt_id, blobs.THUMBNAIL) if receipt_id else None
