"""Ingest: read the upload back, check and clean it (app.receipts.images), store
the clean image and its thumbnail, drop the upload; idempotent.

moto (local mode) enforces no POST policy and no expiry, and a policy is only as good as
its signer, so everything is checked again here: the size against the declared size and
10 MB, the real type, the pixel count, and that the upload landed before the POST expired.
A refused file becomes FAILED with its reason and every object of it is deleted. The row
moves first and the objects follow, so a second run (a duplicate delivery) never deletes
what the first one kept: only the run that moved PROCESSING -> FAILED deletes."""
from __future__ import annotations

from datetime import datetime

from app import blobs
from app.logs import logger
from app.core.clock import now_iso
from app.core.conditional import update_if
from app.receipts import images, objects, pdfs
from models.groups.receipts import FAILED, PROCESSING, READY, Receipt

JPEG, PDF = "image/jpeg", "application/pdf"


def _load(group_id: str, receipt_id: str):
    try:
        return Receipt.get(*Receipt.key(group_id, receipt_id), consistent_read=True)
    except Receipt.DoesNotExist:
        return None


def _fail(receipt: Receipt, reason: str, message: str) -> str:
    moved = update_if(receipt, [Receipt.Status.set(FAILED), Receipt.Reason.set(reason),
                                Receipt.ReasonText.set(message[:300]),
                                Receipt.UpdatedAt.set(now_iso()), Receipt.Version.add(1)],
                      Receipt.Status == PROCESSING)
    if not moved:
        return "lost"
    objects.delete(receipt.GroupId, receipt.ReceiptId)
    logger.info("receipts.ingest_failed", extra={"reason": reason})
    return "failed"


def _landed_late(last_modified: datetime, expires_at: str) -> bool:
    stamp = last_modified.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    return stamp > expires_at


def ingest(group_id: str, receipt_id: str) -> str:
    """PROCESSING -> READY or FAILED; any other status: nothing to do."""
    receipt = _load(group_id, receipt_id)
    if receipt is None:
        return "missing"
    if receipt.Status != PROCESSING:
        return "finished"
    limit = min(int(receipt.DeclaredSize), images.MAX_BYTES)
    try:
        blob = objects.read(group_id, receipt_id, blobs.UPLOAD, limit)
    except objects.TooLarge:
        return _fail(receipt, "TOO_LARGE", "The file is larger than it was declared (or 10 MB).")
    if blob is None:
        return _fail(receipt, "NOT_UPLOADED", "No file was uploaded.")
    if _landed_late(blob.last_modified, receipt.UploadEndsAt):
        return _fail(receipt, "UPLOAD_EXPIRED", "The file arrived after the upload expired.")
    pdf = pdfs.is_pdf(blob.data)
    try:
        if pdf:
            document = pdfs.read(blob.data)
            clean = images.kept(document.first_page, "PDF")
        else:
            clean = images.clean(blob.data)
    except images.Refused as refusal:
        return _fail(receipt, refusal.reason, refusal.message)
    except Exception:  # noqa: BLE001 — a decoder's surprise is a bad file, never a crash loop
        logger.exception("receipts.ingest_decoder_failed")
        return _fail(receipt, "CORRUPT", "The file could not be read.")
    found = [Receipt.ContentType.set(PDF if pdf else JPEG)]
    if pdf:
        objects.write(group_id, receipt_id, blobs.DOCUMENT, blob.data, PDF)
        found.append(Receipt.Pages.set(document.pages))
        if document.text:
            objects.write(group_id, receipt_id, blobs.TEXT, document.text.encode(),
                          "text/plain; charset=utf-8")
            found.append(Receipt.HasText.set(1))
    objects.write(group_id, receipt_id, blobs.IMAGE, clean.image, JPEG)
    objects.write(group_id, receipt_id, blobs.THUMBNAIL, clean.thumbnail, JPEG)
    moved = update_if(receipt, [Receipt.Status.set(READY), Receipt.Width.set(clean.width),
                                Receipt.Height.set(clean.height),
                                Receipt.ImageBytes.set(len(clean.image)), *found,
                                Receipt.UpdatedAt.set(now_iso()), Receipt.Version.add(1)],
                      Receipt.Status == PROCESSING)
    if not moved and _load(group_id, receipt_id) is None:
        objects.delete(group_id, receipt_id)  # deleted meanwhile: keep nothing of it
        return "gone"
    objects.delete(group_id, receipt_id, [blobs.UPLOAD])
    return "ready" if moved else "lost"
