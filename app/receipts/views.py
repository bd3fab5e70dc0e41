"""Receipts: /groups/{groupId}/receipts… and an expense's /receipt (docs/receipts.md)."""
from __future__ import annotations

from app.api.context import settings
from app.api.needs import needs
from app.api.spec import FORBIDDEN, NOT_FOUND, Blueprint, errors
from app.ledger.schemas import ExpenseSchema
from app.receipts.schemas import (AttachReceiptSchema, ConfirmReceiptSchema, ReceiptCreateSchema,
                                  ReceiptSchema, ReceiptUploadSchema)
from app.receipts import attaching, scanning, uploads

blp = Blueprint("receipts", __name__, description="Receipts: attach a photo, scan it into a draft")

LIMITED = (429, "RECEIPT_LIMIT: 100 receipts per group per day, 20 scans per user per day.")
NOT_READY = "RECEIPT_NOT_READY (details.status): the receipt is not READY"


@blp.route("/groups/<uuid:groupId>/receipts", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", idempotent=True, link=True)
@blp.arguments(ReceiptCreateSchema)
@blp.response(201, ReceiptUploadSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, LIMITED)
def create_receipt(body, access):
    """Start a receipt (MEMBER+): a presigned S3 POST valid 5 minutes, whose policy pins the
    key, the type and the size. POST the form's fields, then the file (field ``file``)."""
    return uploads.create_receipt(access, body["contentType"], body["size"])


@blp.route("/groups/<uuid:groupId>/receipts/<uuid:receiptId>/complete", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", link=True)
@blp.response(202, ReceiptSchema)
@errors(blp, FORBIDDEN, NOT_FOUND)
def complete_receipt(access, receipt_id):
    """The upload is done: ingest checks and cleans it (PROCESSING, then READY or FAILED
    with a reason). Again: harmless."""
    return uploads.complete(access, str(receipt_id))


@blp.route("/groups/<uuid:groupId>/receipts/<uuid:receiptId>")
@needs(role="VIEWER", pat="groups:read", link=True)
@blp.response(200, ReceiptSchema)
@errors(blp, NOT_FOUND)
def get_receipt(access, receipt_id):
    """The receipt, its presigned image and thumbnail URLs (15 minutes) and its scan."""
    return uploads.load_receipt(access.group_id, str(receipt_id))


@blp.route("/groups/<uuid:groupId>/receipts/<uuid:receiptId>/scan", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", link=True)
@blp.response(202, ReceiptSchema)
@errors(blp, (403, "FORBIDDEN: below MEMBER, or a share-link session (details.reason "
                   "SCAN_NEEDS_ACCOUNT: a scan spends its caller's credits)."),
        NOT_FOUND, LIMITED,
        (402, "INSUFFICIENT_CREDITS: a scan costs chat credits (details.balance, "
              "details.needed)."),
        (409, f"{NOT_READY}; RECEIPT_CONFIRMED."))
def scan_receipt(access, receipt_id):
    """Scan the receipt into a draft (MEMBER+, costs chat credits; not by a share-link
    session, which has no credits); asked while a scan is pending: charged once."""
    return scanning.request_scan(access, str(receipt_id), settings())


@blp.route("/groups/<uuid:groupId>/receipts/<uuid:receiptId>/confirm", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", link=True)
@blp.arguments(ConfirmReceiptSchema)
@blp.response(201, ExpenseSchema)
@errors(blp, FORBIDDEN, NOT_FOUND,
        (409, f"RECEIPT_CONFIRMED (details.expenseId): a replay never creates a second "
              f"expense; {NOT_READY}; RECEIPT_ATTACHED; SCAN_NOT_DONE (no body and no "
              "draft); or an expense create's own conflicts."))
def confirm_receipt(body, access, receipt_id):
    """Create the expense (the draft, edited or not) with the receipt attached (MEMBER+)."""
    return attaching.confirm(access, str(receipt_id), body.get("expense"))


ATTACH_CONFLICTS = (409, f"{NOT_READY}; RECEIPT_ATTACHED, RECEIPT_CONFIRMED (the receipt is "
                        "another expense's); ATTACHMENT_LIMIT (details.limit: the expense "
                        "holds 5 receipts already); VERSION_CONFLICT.")


@blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>/receipt", methods=["PUT"])
@needs(role="MEMBER", pat="expenses:write", link=True)
@blp.arguments(AttachReceiptSchema)
@blp.response(200, ExpenseSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, ATTACH_CONFLICTS)
def attach_receipt(body, access, expense_id):
    """Attach a READY receipt of this group as the expense's first (MEMBER+): the others
    move one down; the same one again: 200 as it is."""
    return attaching.attach(access, str(expense_id), str(body["receiptId"]), first=True)


@blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>/attachments", methods=["POST"])
@needs(role="MEMBER", pat="expenses:write", link=True)
@blp.arguments(AttachReceiptSchema)
@blp.response(200, ExpenseSchema)
@errors(blp, FORBIDDEN, NOT_FOUND, ATTACH_CONFLICTS)
def add_attachment(body, access, expense_id):
    """Attach one more READY receipt (photo or PDF) after the others, up to 5 (MEMBER+);
    the same one again: 200 as it is."""
    return attaching.attach(access, str(expense_id), str(body["receiptId"]))


@blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>/attachments/<uuid:receiptId>",
           methods=["DELETE"])
@needs(role="MEMBER", pat="expenses:write", link=True)
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "VERSION_CONFLICT: the expense changed meanwhile."))
def delete_attachment(access, expense_id, receipt_id):
    """Detach one of the expense's receipts and delete it, file and all (MEMBER+); the next
    becomes the first. Not attached to this expense: 404."""
    attaching.detach(access, str(expense_id), str(receipt_id))


@blp.route("/groups/<uuid:groupId>/expenses/<uuid:expenseId>/receipt", methods=["DELETE"])
@needs(role="MEMBER", pat="expenses:write", link=True)
@blp.response(204)
@errors(blp, FORBIDDEN, NOT_FOUND, (409, "VERSION_CONFLICT: the expense changed meanwhile."))
def detach_receipt(access, expense_id):
    """Detach the expense's first receipt and delete it, image and all (MEMBER+); the next
    becomes the first."""
    attaching.detach(access, str(expense_id))
