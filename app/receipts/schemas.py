"""Receipts: the upload request, the receipt, its scan and the confirm body.

URLs are presigned GETs (15 minutes) computed when the reply is dumped (app.blobs signs
locally: no S3 call); the scan is stored as one JSON document on the row."""
from __future__ import annotations

import json

from marshmallow import fields, post_load, validate

from app import blobs
from app.limits import MAX_RECEIPT_BYTES
from app.api.schemas import DerivedNested, DerivedString, OmitNone, Schema, Strict, StrictInteger
from app.ledger.expense_input import ITEM_NAME_MAX
from app.ledger.schemas import ExpenseCreateSchema, expense_of
from app.money.splits import MAX_AMOUNT, SPLIT_MODES
from app.limits import MAX_EXTRAS
from app.receipts.draft_input import EXTRA_KINDS, Draft, Extra

CONTENT_TYPES = ("image/jpeg", "image/png", "image/webp", "image/heic", "application/pdf")
SCAN_STATUSES = ("PENDING", "DONE", "FAILED")


class ReceiptCreateSchema(Strict):
    contentType = fields.String(required=True, validate=validate.OneOf(CONTENT_TYPES))
    size = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_RECEIPT_BYTES),
                         metadata={"description": "Bytes (at most 10 MB)"})


class UploadFormSchema(Schema):
    url = fields.String(required=True)
    fields_ = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                          data_key="fields", attribute="fields",
                          metadata={"description": "Form fields to POST before the file"})


class ReceiptUploadSchema(Schema):
    receiptId = fields.String(required=True, attribute="ReceiptId")
    status = fields.String(required=True, attribute="Status")
    upload = fields.Nested(UploadFormSchema, required=True, attribute="upload")
    expiresAt = fields.String(required=True, attribute="UploadEndsAt")


class ScanItemSchema(Schema):
    name = fields.String(required=True)
    amount = fields.Integer(required=True)


class ScanExtraSchema(Schema):
    name = fields.String(required=True, metadata={"description": "The line's label"})
    amount = fields.Integer(required=True, metadata={
        "description": "Minor units of the scan's currency; negative for a discount"})
    kind = fields.String(required=True, validate=validate.OneOf(EXTRA_KINDS), metadata={
        "description": "TAX (added on top of the prices), TIP, SERVICE or DISCOUNT"})


EXTRAS = ("Tax, tip, service and discount lines (minor units of the body's currency, a "
          "discount negative): confirm shares their sum over the items in proportion to the "
          "items' amounts, so each person owes them in proportion to what they had")


class ReceiptExtraInSchema(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=ITEM_NAME_MAX),
                         metadata={"description": "The receipt line's label (\"Tip\", \"VAT\")"})
    amount = fields.Integer(required=True, strict=True,
                            validate=validate.Range(min=-MAX_AMOUNT, max=MAX_AMOUNT),
                            metadata={"description": "Minor units; negative for a discount"})

    @post_load
    def _extra(self, data, **kwargs):
        return Extra(data["name"], data["amount"])


class ReceiptExpenseSchema(ExpenseCreateSchema):
    """An expense body (as POST .../expenses takes it) plus the draft's ``extras``; loads as
    the receipt's Draft (app.receipts.drafts)."""

    TO_INPUT = False
    extras = fields.List(fields.Nested(ReceiptExtraInSchema),
                         validate=validate.Length(max=MAX_EXTRAS), metadata={"description": EXTRAS})

    @post_load
    def _receipt_draft(self, data, **kwargs):
        if isinstance(data, Draft):
            return data
        extras = tuple(data.pop("extras", None) or ())
        return Draft(expense_of(data), extras)


class ReceiptDraftSplitSchema(Schema):
    participantId = fields.String(required=True)
    value = fields.Integer(metadata={"description": "1: EQUAL over the roster until assigned"})


class ReceiptDraftPaymentSchema(Schema):
    participantId = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={"description": "Minor units"})


class ReceiptDraftItemSchema(Schema):
    name = fields.String(metadata={"description": "The receipt line (or the merchant)"})
    amount = fields.Integer(required=True, metadata={"description": "Minor units"})
    splitMode = fields.String(required=True, validate=validate.OneOf(SPLIT_MODES))
    splits = fields.List(fields.Nested(ReceiptDraftSplitSchema), required=True)


class ReceiptDraftExtraSchema(Schema):
    name = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={"description": "Minor units; negative for "
                                                                    "a discount"})


class ReceiptDraftSchema(Schema):
    """A scan's draft as stored: the POST .../expenses body (items form) and its extras."""

    description = fields.String(required=True)
    date = fields.String(required=True, metadata={"format": "date"})
    notes = fields.String(metadata={"description": "Set when the receipt prints no currency "
                                                   "(read as the group's)"})
    currency = fields.String(metadata={"description": "The receipt's, when not the group's"})
    payments = fields.List(fields.Nested(ReceiptDraftPaymentSchema), required=True)
    items = fields.List(fields.Nested(ReceiptDraftItemSchema), required=True, metadata={
        "description": "One per receipt line, EQUAL over the roster until assigned"})
    extras = fields.List(fields.Nested(ReceiptDraftExtraSchema), metadata={"description": EXTRAS})


class ScanConfidenceSchema(Schema):
    merchant = fields.Float(required=True)
    date = fields.Float(required=True)
    total = fields.Float(required=True)
    items = fields.Float(required=True)


class ScanSchema(OmitNone, Schema):
    OMIT_NONE = ("engine", "merchant", "date", "total", "currency", "currencyPrinted", "reason",
                 "confidence", "extras")

    status = fields.String(required=True, validate=validate.OneOf(SCAN_STATUSES))
    reason = fields.String(allow_none=True)
    engine = fields.String(allow_none=True)
    merchant = fields.String(allow_none=True)
    date = fields.String(allow_none=True)
    total = fields.Integer(allow_none=True, metadata={"description": "Minor units of currency"})
    currency = fields.String(allow_none=True)
    currencyPrinted = fields.Boolean(allow_none=True, metadata={
        "description": "false: the receipt prints no currency, and currency is the group's "
                       "(the draft's notes say so)"})
    items = fields.List(fields.Nested(ScanItemSchema), required=True)
    extras = fields.List(fields.Nested(ScanExtraSchema), allow_none=True, metadata={
        "description": "Tax, tip, service and discount lines that apply on top of the items "
                       "(items and extras add up to the total when the receipt does)"})
    confidence = fields.Nested(ScanConfidenceSchema, allow_none=True)
    draft = fields.Nested(ReceiptDraftSchema, allow_none=True, required=True, metadata={
        "description": "An expense body of this group (POST .../expenses shape) with the "
                       "receipt's extras, to edit and send to confirm; null when the scan "
                       "found no usable total"})


def _scan(receipt):
    if not receipt.ScanStatus:
        return None
    if receipt.ScanStatus in ("PENDING", "WORKING"):
        return {"status": "PENDING", "items": [], "draft": None}
    if receipt.ScanStatus == "FAILED":
        return {"status": "FAILED", "reason": receipt.ScanFailure, "items": [], "draft": None}
    return {"status": "DONE", **json.loads(receipt.ScanResult)}


def _url(name, pdf_only=False):
    def get(receipt):
        if receipt.Status != "READY" or (pdf_only and receipt.ContentType != "application/pdf"):
            return None
        return blobs.presigned_get(receipt.GroupId, receipt.ReceiptId, name)
    return get


class ReceiptSchema(OmitNone, Schema):
    OMIT_NONE = ("reason", "reasonMessage", "expenseId", "imageUrl", "thumbnailUrl", "scan",
                 "contentType", "pages", "documentUrl")

    receiptId = fields.String(required=True, attribute="ReceiptId")
    status = fields.String(required=True, attribute="Status",
                           validate=validate.OneOf(("UPLOADING", "PROCESSING", "READY",
                                                    "FAILED")))
    reason = fields.String(attribute="Reason", allow_none=True, metadata={
        "description": "FAILED: TOO_LARGE, EMPTY, NOT_UPLOADED, UPLOAD_EXPIRED, "
                       "UNSUPPORTED_TYPE, TOO_MANY_PIXELS, TOO_COMPLEX (a JPEG of more than "
                       "100 scans, or a file too slow to decode or render), TOO_MANY_PAGES (a "
                       "PDF of more than 10 pages), ENCRYPTED (a PDF that needs a password) or "
                       "CORRUPT"})
    reasonMessage = fields.String(attribute="ReasonText", allow_none=True)
    expenseId = fields.String(attribute="AttachedExpenseId", allow_none=True)
    imageUrl = DerivedString(_url(blobs.IMAGE), allow_none=True)
    thumbnailUrl = DerivedString(_url(blobs.THUMBNAIL), allow_none=True)
    documentUrl = DerivedString(_url(blobs.DOCUMENT, pdf_only=True), allow_none=True, metadata={
        "description": "A PDF receipt: a presigned GET (15 minutes) of the PDF itself"})
    contentType = fields.String(attribute="ContentType", allow_none=True, metadata={
        "description": "READY: image/jpeg (a photo, as kept) or application/pdf (imageUrl and "
                       "thumbnailUrl are its first page)"})
    pages = fields.Integer(attribute="Pages", allow_none=True, metadata={
        "description": "A PDF's page count"})
    width = fields.Integer(attribute="Width", allow_none=True)
    height = fields.Integer(attribute="Height", allow_none=True)
    createdAt = fields.String(required=True, attribute="CreatedAt")
    scan = DerivedNested(_scan, ScanSchema, allow_none=True)


class ConfirmReceiptSchema(Strict):
    expense = fields.Nested(ReceiptExpenseSchema, required=False, metadata={
        "description": "The expense to create (the scan's draft, edited or not: its items "
                       "assigned to people, its extras); omitted: the draft as it is"})


class AttachReceiptSchema(Strict):
    receiptId = fields.UUID(required=True)

