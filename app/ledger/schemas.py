"""The ledger: the marshmallow schemas of its routes (camelCase only here)."""
from __future__ import annotations

from marshmallow import ValidationError, fields, post_dump, post_load, validate, validates_schema
from typing import NamedTuple
from app import blobs
from app.limits import MAX_COMMENT_BODY, MAX_PARTICIPANTS, MAX_SETTLEMENT_NOTE
from app.api.schemas import (CURRENCY, DerivedList, DerivedNested, DerivedString, ExchangeRate,
                             Id, Money, PageArgsSchema, Schema, Strict,
                             StrictInteger,
                             page_schema, DerivedDict, StrictBoolean)
from app.dates import is_calendar_date
from app.limits import MAX_EXPENSE_ITEMS, MAX_EXTRA_NAME, MAX_EXTRAS
from app.money.extras import extra_shares
from app.ledger import expense_input
from app.ledger.expense_input import (ITEM_NAME_MAX, NOT_BOTH_FORMS, ONE_FORM, TEXT_MAX,
                                      ExpenseInput, ExtraInput, ItemInput, PaymentInput,
                                      SplitInput)
from app.money.settlement_input import SettlementInput
from app.money.splits import EXPENSE, KINDS, MAX_AMOUNT, SPLIT_MODES
from models.groups import RATE_SOURCES, RATE_CLIENT, RATE_ECB
from models.groups.ledger import attachments_of


# ---------------------------------------------------------------- expenses
# Expenses and their comments.

MAX_ITEMS = MAX_EXPENSE_ITEMS


def calendar_date(value: str) -> None:
    """``YYYY-MM-DD`` naming a real day."""
    if not is_calendar_date(value):
        raise ValidationError("Must be a calendar date YYYY-MM-DD.")


def DateString(**kwargs) -> fields.String:  # noqa: N802 — reads like a field type
    return fields.String(validate=calendar_date, metadata={"format": "date",
                                                           "example": "2026-11-28"}, **kwargs)


def not_blank(value: str) -> None:
    if not value.strip():
        raise ValidationError("Must not be blank.")


TEXT = [validate.Length(min=1, max=TEXT_MAX["description"]), not_blank]


class PaymentSchema(Strict):
    participant_id = Id(required=True, data_key="participantId")
    amount = Money(required=True)

    @post_load
    def _input(self, data, **kwargs):
        return PaymentInput(**data)


class SplitInSchema(Strict):
    participant_id = Id(required=True, data_key="participantId")
    value = StrictInteger(validate=validate.Range(min=-MAX_AMOUNT, max=MAX_AMOUNT), metadata={
        "description": "Ignored for EQUAL; minor units for EXACT; basis points for PERCENT; "
                       "a positive weight for SHARES; for ADJUSTMENT (required, 0 allowed) "
                       "signed minor units added to an equal share of what the adjustments "
                       "leave. Only ADJUSTMENT takes a negative value"})

    @post_load
    def _input(self, data, **kwargs):
        return SplitInput(**data)


class ItemInSchema(Strict):
    name = fields.String(validate=validate.Length(min=1, max=ITEM_NAME_MAX))
    amount = Money(required=True)
    split_mode = fields.String(required=True, validate=validate.OneOf(SPLIT_MODES),
                               data_key="splitMode")
    splits = fields.List(fields.Nested(SplitInSchema), required=True,
                         validate=validate.Length(min=1, max=MAX_PARTICIPANTS))

    @post_load
    def _input(self, data, **kwargs):
        return ItemInput(data.get("name"), data["amount"], data["split_mode"],
                         tuple(data["splits"]))


class ExtraInSchema(Strict):
    name = fields.String(required=True, validate=[
        validate.Length(min=1, max=MAX_EXTRA_NAME), not_blank], metadata={
        "description": "tax, tip, service, discount, or your own words", "example": "tip"})
    amount = StrictInteger(required=True, validate=validate.Range(min=-MAX_AMOUNT,
                                                                  max=MAX_AMOUNT),
                           metadata={"description": "Signed minor units of the body's currency "
                                                    "(a discount is negative)"})

    @post_load
    def _input(self, data, **kwargs):
        return ExtraInput(data["name"], data["amount"])


def expense_of(data: dict) -> ExpenseInput:
    """The expense fields of a loaded body, taken out of it, as the ledger's ExpenseInput;
    what else the body loaded (a version, a template's schedule) stays in ``data``."""
    fields_sent = {name: data.pop(name) for name in ExpenseInput._fields if name in data}
    for name in ("payments", "items", "splits", "extras"):
        if fields_sent.get(name) is not None:
            fields_sent[name] = tuple(fields_sent[name])
    return ExpenseInput.of(**fields_sent)


KIND_DESCRIPTION = (
    "EXPENSE (default): payments name who paid, splits who owes. INCOME: money the group "
    "received (a deposit back, a refund, a sale): payments name who received it, splits "
    "whom it belongs to, and every net moves the other way")


class _ExpenseFields(Strict):
    """The expense fields of a request body, loaded under ExpenseInput's names."""

    description = fields.String(validate=TEXT)
    date = DateString()
    category = fields.String(allow_none=True, validate=validate.Length(max=TEXT_MAX["category"]))
    notes = fields.String(allow_none=True, validate=validate.Length(max=TEXT_MAX["notes"]),
                          metadata={"description": "Optional free-text notes about the expense "
                                                   f"(at most {TEXT_MAX['notes']} characters); "
                                                   "null clears them"})
    payments = fields.List(fields.Nested(PaymentSchema),
                           validate=validate.Length(min=1, max=MAX_PARTICIPANTS))
    items = fields.List(fields.Nested(ItemInSchema), validate=validate.Length(min=1, max=MAX_ITEMS))
    amount = Money(metadata={"description": "Total: the items plus the extras (with the "
                                            "shorthand, its one item is amount minus the "
                                            "extras)"})
    split_mode = fields.String(validate=validate.OneOf(SPLIT_MODES), data_key="splitMode")
    splits = fields.List(fields.Nested(SplitInSchema),
                         validate=validate.Length(min=1, max=MAX_PARTICIPANTS))
    currency = fields.String(validate=CURRENCY, metadata={
        "description": "ISO 4217 code of every amount in the body (default the group's)"})
    exchange_rate = ExchangeRate(allow_none=True, data_key="exchangeRate")
    group_amount = Money(allow_none=True, data_key="groupAmount", metadata={
        "description": "What was really charged, in group minor units (the rate is derived)"})
    kind = fields.String(validate=validate.OneOf(KINDS), metadata={
        "description": KIND_DESCRIPTION})
    extras = fields.List(fields.Nested(ExtraInSchema), allow_none=True,
                         validate=validate.Length(max=MAX_EXTRAS), metadata={
                             "description": "Tax, tip, service, discount: each shared among "
                                            "the participants in proportion to what they owe "
                                            "for the items (split rounding rule, leftover "
                                            "units in the order participants first appear in "
                                            "the items' splits); null or [] clears them"})

    @validates_schema
    def one_form(self, data, **kwargs):
        if expense_input.mixed(data):
            raise ValidationError(expense_input.BOTH, expense_input.ITEMS)


ROUNDING_RULE = (
    "Owed amounts are exact integers of minor units that add up to each item's amount. "
    "EXACT splits owe their values. PERCENT, SHARES and EQUAL splits first owe the floor "
    "of their ideal share (amount * weight / total weight); the leftover minor units then "
    "go one each, in list order, only to splits whose ideal share is fractional (a split "
    "owing a whole share, or 0%, is never rounded up). Every owed amount is within one "
    "minor unit of its ideal share. ADJUSTMENT splits owe an equal share (by the same rule, "
    "rounded toward minus infinity) of the amount minus the adjustments, plus their own "
    "adjustment; a share below 0 is refused.")


BOTH_FORMS_REFUSED = ("A body with both forms (or a whole body with neither) is refused with 400 "
                      "VALIDATION_ERROR.")


class FullBody:
    """A whole expense body, for every create: description, payments, and items or the
    shorthand. A plain mixin, so the schema it joins keeps its own Meta."""

    # The server always requires these (the either/or is documented as anyOf: ONE_FORM).
    description = fields.String(required=True, validate=TEXT)
    payments = fields.List(fields.Nested(PaymentSchema), required=True,
                           validate=validate.Length(min=1, max=MAX_PARTICIPANTS))

    @validates_schema
    def complete(self, data, **kwargs):
        if expense_input.defaulted(data):  # the group's defaultSplit shares the amount
            return
        errors = {name: [expense_input.REQUIRED_DETAIL] for name in expense_input.missing(data)}
        if errors:
            raise ValidationError(errors)


class ExpenseCreateSchema(FullBody, _ExpenseFields):
    """Full body: ``items``, or the shorthand ``amount`` + ``splitMode`` + ``splits``.
    Loads as the ledger's ExpenseInput (unless TO_INPUT is False: an MCP tool's arguments,
    whose decimals become minor units first)."""

    TO_INPUT = True

    # Not Meta.description: apispec then drops additionalProperties: false.
    OPENAPI_EXTRA = {"anyOf": ONE_FORM,
                     "not": NOT_BOTH_FORMS,
                     "description": "An expense: who paid (payments) and who owes what. Items "
                                    "or shorthand: " + expense_input.EITHER_FORM + " "
                                    + BOTH_FORMS_REFUSED + " " + ROUNDING_RULE}

    @post_load
    def _expense_input(self, data, **kwargs):
        return expense_of(data) if self.TO_INPUT else data


class ExpenseEdit(NamedTuple):
    """A loaded edit: the version it was based on and the fields it sends."""

    version: int
    changes: ExpenseInput


class ExpensePatchSchema(_ExpenseFields):
    """Any subset of the expense fields plus the ``version`` the edit was based on.
    Loads as an ExpenseEdit (unless TO_INPUT is False)."""

    TO_INPUT = True

    version = StrictInteger(required=True, validate=validate.Range(min=1))

    @post_load
    def _expense_edit(self, data, **kwargs):
        if not self.TO_INPUT:
            return data
        return ExpenseEdit(data.pop("version"), expense_of(data))
    OPENAPI_EXTRA = {"not": NOT_BOTH_FORMS,
                     "description": "An edit: any subset of the expense fields plus the version "
                                    "it was based on. Items or shorthand, as on create: "
                                    + expense_input.EITHER_FORM + " " + BOTH_FORMS_REFUSED}


class _Converted:
    """Reply mixin: ``groupAmount`` (and the other rate fields) only on converted rows."""

    DROP_WHEN_NONE = ("groupAmount",)

    @post_dump
    def _converted_only(self, data, **kwargs):
        for name in self.DROP_WHEN_NONE:
            if data.get(name) is None:
                data.pop(name, None)
        return data


GROUP_AMOUNT = {"description": "Converted rows: in group minor units (apportioned to sum "
                               "to the row's groupAmount)"}


class SplitSchema(_Converted, Strict):
    participantId = fields.String(required=True, attribute="ParticipantId")
    value = fields.Integer(required=True, attribute="Value")
    amount = fields.Integer(required=True, metadata={"description": "Owed, minor units"},
                            attribute="Amount")
    groupAmount = fields.Integer(attribute="GroupAmount", metadata=GROUP_AMOUNT)


class PaymentReplySchema(_Converted, Strict):
    participantId = fields.String(required=True)
    amount = fields.Integer(required=True)
    groupAmount = fields.Integer(metadata=GROUP_AMOUNT)


class ExtraShareSchema(_Converted, Strict):
    participantId = fields.String(required=True, attribute="participant_id")
    amount = fields.Integer(required=True, attribute="amount",
                            metadata={"description": "This participant's share, minor units"})
    groupAmount = fields.Integer(attribute="group_amount", metadata=GROUP_AMOUNT)


class ExtraSchema(Strict):
    name = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={"description": "Signed minor units"})
    shares = fields.List(fields.Nested(ExtraShareSchema), required=True, metadata={
        "description": "In proportion to the item subtotals; they sum to the extra"})


def stored_extras(row) -> list:
    """A row's (or a template's map's) extras with their shares by participant."""
    body = getattr(row, "Template", None) or row
    return [{"name": extra.Name, "amount": int(extra.Amount), "shares": shares}
            for extra, shares in extra_shares(body)]


class ItemSchema(Strict):
    name = fields.String(required=True, attribute="Name")
    amount = fields.Integer(required=True, attribute="Amount")
    splitMode = fields.String(required=True, attribute="SplitMode")
    splits = fields.List(fields.Nested(SplitSchema), required=True, attribute="Splits")


def stored_payments(body) -> list:
    """Stored PaymentMaps as PaymentSchema dumps them: that schema also loads request
    bodies, so it keeps the wire names rather than naming the row's attributes."""
    return [{"participantId": p.ParticipantId, "amount": int(p.Amount),
             "groupAmount": None if p.GroupAmount is None else int(p.GroupAmount)}
            for p in body.Payments]


class ExpenseBodySchema(_Converted, Strict):
    """What an expense and a recurring template both carry: who paid, who owes what.

    Dumps the stored body (an Expense row; a template's Template map)."""

    DROP_WHEN_NONE = ("exchangeRate", "rateSource", "rateDate", "groupAmount")

    groupId = fields.String(required=True, attribute="GroupId")
    description = fields.String(required=True, attribute="Description")
    category = fields.String(allow_none=True, attribute="Category")
    # The row's Notes, or a template's (its Template map): one field for both replies.
    notes = DerivedString(lambda row: getattr(getattr(row, "Template", None) or row, "Notes",
                                              None), allow_none=True,
                          metadata={"description": "Free text; null when there are none"})
    amount = fields.Integer(required=True, attribute="Amount")
    payments = DerivedList(stored_payments, fields.Nested(PaymentReplySchema), required=True)
    items = fields.List(fields.Nested(ItemSchema), required=True, attribute="Items")
    extras = DerivedList(stored_extras, fields.Nested(ExtraSchema), required=True, metadata={
        "description": "Tax, tip, service, discount ([] when none); each item split's amount "
                       "stays its item share"})
    currency = fields.String(required=True, attribute="Currency", metadata={
        "description": "ISO 4217 code of the body's amounts"})
    exchangeRate = fields.String(attribute="ExchangeRate", metadata={
        "description": "Converted rows: 1 unit of currency in the group currency (a "
                       "decimal string)"})
    rateSource = fields.String(attribute="RateSource", metadata={
        "enum": list(RATE_SOURCES)})
    rateDate = fields.String(attribute="RateDate", metadata={
        "description": "ECB rates: the publication day used"})
    groupAmount = fields.Integer(attribute="GroupAmount", metadata={
        "description": "Converted rows: the amount in group minor units"})
    # The row's Kind, or a template's (its Template map); EXPENSE when none is stored.
    kind = DerivedString(lambda row: getattr(getattr(row, "Template", None) or row, "ExpenseKind",
                                             None) or EXPENSE, required=True,
                         metadata={"enum": list(KINDS), "description": KIND_DESCRIPTION})


class ReceiptLinkSchema(Schema):
    """The receipt attached to an expense: its id and a presigned thumbnail (15 minutes)."""

    receiptId = fields.String(required=True)
    thumbnailUrl = fields.String(required=True)


def _receipt_link(expense):
    receipt_id = getattr(expense, "ReceiptId", None)
    if not receipt_id:
        return None
    return {"receiptId": receipt_id,
            "thumbnailUrl": blobs.presigned_get(expense.GroupId, receipt_id, blobs.THUMBNAIL)}


class AttachmentSchema(Schema):
    """A receipt attached to an expense (a photo, kept as JPEG, or a PDF)."""

    receiptId = fields.String(required=True)
    contentType = fields.String(required=True, metadata={
        "description": "image/jpeg (a photo, as kept) or application/pdf"})
    thumbnailUrl = fields.String(metadata={
        "description": "A presigned GET (15 minutes) of the thumbnail; a PDF's is its first "
                       "page"})


def _attachments(expense):
    found = attachments_of(expense)
    if not found:
        return None
    return [{"receiptId": rid, "contentType": kind,
             "thumbnailUrl": blobs.presigned_get(expense.GroupId, rid, blobs.THUMBNAIL)}
            for rid, kind in found]


class ExpenseSchema(ExpenseBodySchema):
    """Dumps an Expense row (always the itemised form)."""

    expenseId = fields.String(required=True, attribute="ExpenseId")
    date = fields.String(required=True, attribute="Date")
    version = fields.Integer(required=True, attribute="Version")
    createdBy = fields.String(allow_none=True, attribute="CreatedBy")
    createdAt = fields.String(required=True, attribute="CreatedAt")
    updatedAt = fields.String(allow_none=True, attribute="UpdatedAt")
    recurringId = fields.String(attribute="RecurringId")
    recurringSlot = fields.String(allow_none=True, attribute="RecurringSlot")
    receipt = DerivedNested(_receipt_link, ReceiptLinkSchema, allow_none=True,
                            metadata={"description": "Only when a receipt is attached: the "
                                                     "first of attachments"})
    attachments = DerivedList(_attachments, fields.Nested(AttachmentSchema), allow_none=True,
                              metadata={"description": "Only when receipts are attached: up "
                                                       "to 5, the first is receipt"})

    @post_dump
    def _recurring_only(self, data, **kwargs):
        """recurringId and recurringSlot are sent only for an expense a template recorded;
        receipt only when one is attached."""
        if not data.get("recurringId"):
            data.pop("recurringId", None)
            data.pop("recurringSlot", None)
        if data.get("receipt", 0) is None:
            del data["receipt"]
        if data.get("attachments", 0) is None:
            del data["attachments"]
        return data


class CommentSchema(Strict):
    """Dumps a Comment row."""

    commentId = fields.String(required=True, attribute="CommentId")
    expenseId = fields.String(required=True, attribute="expense_id")
    authorUserId = fields.String(required=True, attribute="AuthorUserId")
    authorParticipantId = fields.String(allow_none=True, attribute="AuthorParticipantId")
    body = fields.String(required=True, attribute="Body")
    mentions = DerivedList(lambda row: sorted(row.Mentions or []), fields.String(),
                           required=True,
                           metadata={"description": "User ids notified by @handle"})
    createdAt = fields.String(required=True, attribute="CreatedAt")
    editedAt = fields.String(allow_none=True, attribute="EditedAt")


class ExpenseDetailSchema(ExpenseSchema):
    """Dumps an ExpenseThread: the expense's fields, then its first comments."""

    comments = fields.List(fields.Nested(CommentSchema), required=True, attribute="comments")
    commentsNextCursor = fields.String(allow_none=True, required=True, metadata={
        "description": "More comments: pass as cursor to the comments list"},
        attribute="comments_next_cursor")


ExpensePageSchema = page_schema(ExpenseSchema, "ExpensePage")
CommentPageSchema = page_schema(CommentSchema, "CommentPage")


class ExpenseListArgsSchema(PageArgsSchema):
    from_ = DateString(data_key="from")
    to = DateString()
    q = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "Words (case- and accent-insensitive); every one must occur in the "
                       "description or an item name", "example": "taxi airport"})
    participantId = fields.UUID(metadata={"description": "Only expenses this participant "
                                                        "pays or owes in"})
    category = fields.String(validate=validate.Length(min=1, max=TEXT_MAX["category"]))
    minAmount = fields.Integer(validate=validate.Range(min=0, max=MAX_AMOUNT), metadata={
        "description": "Inclusive, group minor units (a converted row by its groupAmount)"})
    maxAmount = fields.Integer(validate=validate.Range(min=0, max=MAX_AMOUNT), metadata={
        "description": "Inclusive, group minor units (a converted row by its groupAmount)"})


class CommentBodySchema(Strict):
    body = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_COMMENT_BODY), not_blank])


# ---------------------------------------------------------------- settlements
# Settlements.

NOTE = validate.Length(max=MAX_SETTLEMENT_NOTE)


class _SettlementFields(Strict):
    """A settlement's body; it loads as a SettlementInput (app.money.settlement_input), whose
    field names these are. A schema that loads more than the body (an MCP tool's arguments)
    sets TO_INPUT False."""

    TO_INPUT = True

    payer_id = Id(data_key="payerId")
    payee_id = Id(data_key="payeeId")
    amount = Money()
    date = DateString()
    note = fields.String(allow_none=True, validate=NOTE)
    currency = fields.String(validate=CURRENCY, metadata={
        "description": "ISO 4217 code of amount (default the group's)"})
    exchange_rate = ExchangeRate(allow_none=True, data_key="exchangeRate")
    group_amount = Money(allow_none=True, data_key="groupAmount", metadata={
        "description": "What it was worth in group minor units (the rate is derived)"})

    @validates_schema
    def different_people(self, data, **kwargs):
        if data.get("payer_id") and data.get("payer_id") == data.get("payee_id"):
            raise ValidationError("Must differ from payerId.", "payeeId")


class SettlementCreateSchema(_SettlementFields):
    """``{payerId, payeeId, amount, date?, note?}``: the payer paid the payee back.
    Loads as a SettlementInput."""

    payer_id = Id(required=True, data_key="payerId")
    payee_id = Id(required=True, data_key="payeeId")
    amount = Money(required=True)

    @post_load
    def _settlement_input(self, data, **kwargs):
        return SettlementInput.of(**data) if self.TO_INPUT else data


class SettlementEdit(NamedTuple):
    """A loaded settlement edit: the version it was based on and the fields it sends."""

    version: int
    changes: SettlementInput


class SettlementPatchSchema(_SettlementFields):
    """Any subset of the settlement's fields plus the ``version`` the edit was based on.
    Loads as a SettlementEdit."""

    version = StrictInteger(required=True, validate=validate.Range(min=1))

    @post_load
    def _settlement_edit(self, data, **kwargs):
        if not self.TO_INPUT:
            return data
        version = data.pop("version")
        return SettlementEdit(version, SettlementInput.of(**data))


class SettlementSchema(_Converted, Strict):
    """Dumps a Settlement row, or a GroupSettlement (the row and its group's currency)."""

    DROP_WHEN_NONE = ("exchangeRate", "rateSource", "rateDate", "groupAmount")

    settlementId = fields.String(required=True, attribute="SettlementId")
    groupId = fields.String(required=True, attribute="GroupId")
    payerId = fields.String(required=True, attribute="PayerId")
    payeeId = fields.String(required=True, attribute="PayeeId")
    amount = fields.Integer(required=True, attribute="Amount")
    currency = fields.String(attribute="currency")
    exchangeRate = fields.String(attribute="ExchangeRate")
    rateSource = fields.String(attribute="RateSource", metadata={
        "enum": list(RATE_SOURCES)})
    rateDate = fields.String(attribute="RateDate")
    groupAmount = fields.Integer(attribute="GroupAmount")
    date = fields.String(allow_none=True, attribute="Date")
    note = fields.String(allow_none=True, attribute="Note")
    version = fields.Integer(required=True, attribute="Version")
    createdBy = fields.String(allow_none=True, attribute="CreatedBy")
    createdAt = fields.String(required=True, attribute="CreatedAt")
    updatedAt = fields.String(allow_none=True, attribute="UpdatedAt")


# The balances replies live in app.ledger.balance_replies.schemas (this module's size cap).
from app.ledger.balance_replies.schemas import (  # noqa: E402,F401 — re-exported
    BalanceRowSchema, BalancesArgsSchema, BalancesSchema, CurrencyBalanceRowSchema,
    CurrencyBalancesSchema, DisplaySchema, HouseholdSchema, PayToSchema, TransferSchema)


class ConversionCreateSchema(Strict):
    """``{currency, exchangeRate}``: move every kept net of currency into the main one."""

    currency = fields.String(required=True, validate=CURRENCY)
    exchangeRate = ExchangeRate(required=True)
    confirmOutlier = StrictBoolean(load_default=False, metadata={
        "description": "Keep a rate more than 100x away from the day's ECB reference"})


class ConversionSchema(Strict):
    """Dumps a CONVERSION row."""

    conversionId = fields.String(required=True, attribute="ConversionId")
    groupId = fields.String(required=True, attribute="GroupId")
    currency = fields.String(required=True, attribute="Currency")
    exchangeRate = fields.String(required=True, attribute="ExchangeRate")
    rateSource = fields.String(required=True, attribute="RateSource",
                               metadata={"enum": [RATE_CLIENT, RATE_ECB]})
    rateDate = fields.String(allow_none=True, attribute="RateDate")
    keptNets = DerivedDict(lambda row: {k: int(v) for k, v in row.KeptNets.as_dict().items()},
                           required=True, metadata={
        "description": "participantId -> the net cleared, minor units of currency"})
    groupNets = DerivedDict(lambda row: {k: int(v) for k, v in row.GroupNets.as_dict().items()},
                            required=True, metadata={
        "description": "participantId -> its converted value, group minor units (sum 0)"})
    createdBy = fields.String(allow_none=True, attribute="CreatedBy")
    createdAt = fields.String(required=True, attribute="CreatedAt")


class RatesArgsSchema(Strict):
    base = fields.String(validate=CURRENCY, metadata={"description": "Default EUR"})
    date = fields.String(validate=calendar_date, metadata={
        "format": "date", "description": "Default today; a real calendar day YYYY-MM-DD"})


class RatesSchema(Strict):
    base = fields.String(required=True)
    date = fields.String(required=True, metadata={"description": "The publication day used"})
    requestedDate = fields.String(required=True, attribute="requested_date")
    source = fields.String(required=True, metadata={"enum": ["ECB"]})
    rates = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "code -> 1 base in code (decimal string)"})
