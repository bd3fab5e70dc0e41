"""Scanning a READY receipt into a draft.

Admission spends credits (app.credits: the balance's version condition, the free allowance
first, a ledger entry) and writes a work pointer in the sharded service partitions it shares
with chat (models.users.ChatWork, marked as a receipt scan) and the receipt's own
ScanStatus, all in one conditional transaction with the daily scan counter. The worker
claims the scan under the row's version (a claim older than STALE_SECONDS is a run that
died and may be claimed again, at most MAX_WORK_CLAIMS times (app.limits)), then DONE with the result and
the draft, or FAILED with the credits refunded; the finishing transaction drops the
pointer, so :func:`reconcile` re-drives exactly the scans whose hand-off or run was lost."""
from __future__ import annotations

import json
import random
import time
from typing import Optional

from app import blobs, metrics
from app.credits import service as credits
from app.errors import Conflict, concurrent_update
from app.logs import logger
from app.limits import MAX_RECEIPT_BYTES, MAX_WORK_CLAIMS
from app.core.access import Access, load_live_group
from app.core.clock import iso_in, now_iso, today
from app.core.conditional import update_if
from app.core.transactions import Transaction
from app.ledger import guards as money_guards
from app.receipts import drafts, limits, objects, work
from app.receipts import extras as receipt_extras
from app.receipts.errors import receipt_confirmed, receipt_not_ready, scan_needs_account
from app.receipts.uploads import load_receipt
from models.groups import UserMember
from models.groups.receipts import (READY, SCAN_DONE, SCAN_FAILED, SCAN_PENDING, SCAN_WORKING,
                                    Receipt)
from models.users import RECEIPT_SCAN_WORK, ChatWork

# A claim older than this is a run that died: above the ReceiptWorker's 120 s timeout
# (template.yaml), and the age at which the sweep re-drives a pointer.
STALE_SECONDS = 180
PDF_TEXT = "pdf-text"  # the engine a scan names when it parsed a PDF's own text
ATTEMPTS = 8  # admissions lost to a parallel one (the balance, the row) are retried
SWEEP_PAGE = 50


class _Lost(Conflict):
    """A parallel admission or run changed the balance or the receipt first."""


def request_scan(access: Access, receipt_id: str, settings) -> Receipt:
    """Admit a scan (MEMBER+, 402 INSUFFICIENT_CREDITS, 20 a day) and hand it off; a scan
    already pending is left as it is (asked twice: charged once)."""
    if access.link_id is not None:
        raise scan_needs_account()
    cost, monthly = int(settings.receipt_scan_credits), int(settings.chat_monthly_credits)
    for attempt in range(ATTEMPTS):
        receipt = load_receipt(access.group_id, receipt_id)
        if receipt.Status != READY:
            raise receipt_not_ready(receipt.Status)
        if receipt.ConfirmedExpenseId:
            raise receipt_confirmed(receipt.ConfirmedExpenseId)
        if receipt.ScanStatus in (SCAN_PENDING, SCAN_WORKING):
            return receipt
        at = now_iso()
        now = credits.standing(access.user_id, at, monthly)
        if now.balance < cost:
            raise credits.insufficient_credits(now.balance, cost)
        lost = _Lost("Lost to a parallel scan.")
        pointer = ChatWork.build(access.user_id, RECEIPT_SCAN_WORK, receipt_id,
                                 "|".join(Receipt.key(access.group_id, receipt_id)), at)
        version = int(receipt.Version)
        tx = Transaction()
        money_guards.check_writer(tx, access)
        tx.update(Receipt(*Receipt.key(access.group_id, receipt_id)),
                  [Receipt.ScanStatus.set(SCAN_PENDING), Receipt.ScanUserId.set(access.user_id),
                   Receipt.ScanCost.set(cost), Receipt.ScanAttempts.set(0),
                   Receipt.ScanWorkKey.set(f"{pointer.UserId}|{pointer.SK}"),
                   Receipt.ScanResult.remove(), Receipt.ScanFailure.remove(),
                   Receipt.Version.set(version + 1), Receipt.UpdatedAt.set(at)],
                  condition=(Receipt.Version == version) & (Receipt.Status == READY),
                  on_fail=lost)
        credits.reserve(tx, access.user_id, now, cost, at, monthly=monthly,
                        session_id=RECEIPT_SCAN_WORK, message_id=receipt_id, on_lost=lost,
                        reason=credits.RECEIPT_SCAN)
        limits.count_scan(tx, access.user_id)
        tx.put(pointer, condition=ChatWork.SK.does_not_exist())
        try:
            tx.commit()
        except _Lost:
            time.sleep(random.uniform(0, 0.02 * 2 ** min(attempt, 4)))
            continue
        _hand_off(access.group_id, receipt_id, settings)
        return load_receipt(access.group_id, receipt_id)
    raise concurrent_update("Too many scans at once; try again.")


def _hand_off(group_id: str, receipt_id: str, settings) -> None:
    work.hand_off(work.scan_item(group_id, receipt_id),
                  run_here=lambda: run(group_id, receipt_id, settings))


def _load(group_id: str, receipt_id: str) -> Optional[Receipt]:
    try:
        return Receipt.get(*Receipt.key(group_id, receipt_id), consistent_read=True)
    except Receipt.DoesNotExist:
        return None


def _drop_pointer(receipt: Receipt) -> None:
    key = receipt.scan_pointer_key()
    if key:
        ChatWork(*key).delete(add_version_condition=False)


def run(group_id: str, receipt_id: str, settings) -> str:
    """Run one admitted scan to DONE or FAILED; returns what happened."""
    receipt = _load(group_id, receipt_id)
    if receipt is None:
        return "missing"
    if receipt.ScanStatus not in (SCAN_PENDING, SCAN_WORKING):
        _drop_pointer(receipt)
        return "finished"
    if receipt.ScanStatus == SCAN_WORKING and (receipt.ScanClaimedAt or "") > iso_in(-STALE_SECONDS):
        return "busy"
    version, attempts = int(receipt.Version), int(receipt.ScanAttempts or 0) + 1
    if not update_if(receipt, [Receipt.ScanStatus.set(SCAN_WORKING),
                               Receipt.ScanClaimedAt.set(now_iso()),
                               Receipt.ScanAttempts.set(attempts),
                               Receipt.Version.set(version + 1)],
                     Receipt.Version == version):
        return "lost"
    if attempts > MAX_WORK_CLAIMS:
        return _fail(receipt, "TIMEOUT")  # every run so far died mid-scan
    try:
        result, draft = _scan(receipt, settings)
    except Exception as error:  # noqa: BLE001 — any failure refunds; the log keeps the trace
        code = getattr(error, "code", None) or "UNAVAILABLE"
        # An engine's ScanError is an answer (its code says it); anything else keeps a trace.
        logger.warning("receipts.scan_failed", extra={"reason": code},
                       exc_info=not hasattr(error, "code"))
        return _fail(receipt, str(code)[:40])
    return _finish(receipt, result, draft)


def _scan(receipt: Receipt, settings):
    # The scan worker's own imports (Pillow, PDFium): the API imports this module, and its
    # cold start never scans (tests/handlers/test_cold_import.py).
    from app.receipts import pdfs
    from app.receipts.ingest import PDF
    from app.receipts.scan import ScanHints, scan_receipt

    group = load_live_group(receipt.GroupId)
    hints = ScanHints(currency=group.Currency, date=today())
    if receipt.HasText:  # a PDF's own text: read as printed, no OCR
        from app.receipts.scan.parser import parse_lines

        text = _object(receipt, blobs.TEXT)
        result = parse_lines(pdfs.lines_of(text.decode("utf-8", "replace")), hints,
                             engine=PDF_TEXT)
    else:
        single_page_pdf = receipt.ContentType == PDF and int(receipt.Pages or 0) == 1
        result = scan_receipt(_object(receipt, blobs.IMAGE), hints, settings,
                              pdf=_object(receipt, blobs.DOCUMENT) if single_page_pdf
                              else None)
    payer = _participant_of(receipt.GroupId, receipt.ScanUserId)
    return result, drafts.build(group, payer, result) if payer else None


def _object(receipt: Receipt, name: str) -> bytes:
    blob = objects.read(receipt.GroupId, receipt.ReceiptId, name, MAX_RECEIPT_BYTES)
    if blob is None:
        raise LookupError(f"the receipt's {name} is gone")
    return blob.data


def _participant_of(group_id: str, user_id: str) -> Optional[str]:
    try:
        guard = UserMember.get(group_id, UserMember.sort_key(user_id), consistent_read=True)
    except UserMember.DoesNotExist:
        return None
    return guard.ParticipantId


def _draft_body(draft: Optional[drafts.Draft]) -> Optional[dict]:
    if draft is None:
        return None
    body = draft.expense.to_draft()
    if draft.extras:
        body["extras"] = receipt_extras.wire(draft.extras)
    return body


def _stored(result, draft: Optional[drafts.Draft]) -> str:
    return json.dumps({"engine": result.engine, "merchant": result.merchant,
                       "date": result.date, "total": result.total, "currency": result.currency,
                       "currencyPrinted": bool(result.currency_printed),
                       "items": [{"name": str(name)[:200], "amount": int(amount)}
                                 for name, amount in result.items][:100],
                       "extras": [{"name": str(name)[:200], "amount": int(amount), "kind": kind}
                                  for name, amount, kind in result.extras][:100],
                       "confidence": {k: float(v) for k, v in dict(result.confidence).items()},
                       "draft": _draft_body(draft)},
                      sort_keys=True)


def _finish_row(tx: Transaction, receipt: Receipt, status: str, actions: list) -> None:
    tx.update(Receipt(receipt.GroupId, receipt.SK),
              [Receipt.ScanStatus.set(status), Receipt.ScanWorkKey.remove(),
               Receipt.UpdatedAt.set(now_iso()), Receipt.Version.set(int(receipt.Version) + 1),
               *actions],
              condition=Receipt.Version == int(receipt.Version), on_fail=_Lost("lost"))
    key = receipt.scan_pointer_key()
    if key:
        tx.delete(ChatWork(*key))


def _finish(receipt: Receipt, result, draft: Optional[drafts.Draft]) -> str:
    tx = Transaction()
    _finish_row(tx, receipt, SCAN_DONE, [Receipt.ScanResult.set(_stored(result, draft))])
    try:
        tx.commit()
    except _Lost:
        return "lost"
    return "done"


def _fail(receipt: Receipt, reason: str) -> str:
    at = now_iso()
    tx = Transaction()
    _finish_row(tx, receipt, SCAN_FAILED, [Receipt.ScanFailure.set(reason)])
    credits.refund(tx, receipt.ScanUserId, int(receipt.ScanCost or 0), at,
                   session_id=RECEIPT_SCAN_WORK, message_id=receipt.ReceiptId)
    try:
        tx.commit()
    except _Lost:
        return "lost"
    metrics.count(metrics.SCANS_FAILED)
    return "failed"


def reconcile(redrive, older_than_s: Optional[float] = None) -> dict:
    """Re-drive receipt-scan pointers older than ``older_than_s`` (the partitions shared
    with chat, one Query per shard): hand the scan to the worker again, or drop a pointer whose receipt is
    gone or whose scan finished. ``redrive(item)`` runs or queues the scan."""
    before = iso_in(-(STALE_SECONDS if older_than_s is None else older_than_s))
    counts = {"scansRedriven": 0, "scanOrphansDropped": 0}
    for shard in ChatWork.shards():
        for pointer in ChatWork.older_than(shard, before, limit=SWEEP_PAGE):
            if not pointer.is_receipt_scan:
                continue
            group_id, sort_key = pointer.MessageSK.split("|", 1)
            receipt = _load(group_id, sort_key[len(Receipt.sort_key("")):])
            if receipt is None or receipt.ScanStatus not in (SCAN_PENDING, SCAN_WORKING):
                pointer.delete(add_version_condition=False)
                counts["scanOrphansDropped"] += 1
            else:
                redrive(work.scan_item(group_id, receipt.ReceiptId))
                counts["scansRedriven"] += 1
    return counts

