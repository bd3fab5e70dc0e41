"""Balances, the settle-up plan and the group export."""
from __future__ import annotations

from marshmallow import fields, post_dump, validate

from app.schemas.common import CURRENCY, DerivedDict, ExchangeRate, Strict, StrictBoolean
from app.schemas.expenses import CommentSchema, ExpenseSchema, calendar_date
from models.groups import RATE_CLIENT, RATE_ECB
from app.schemas.groups import GroupSchema, ParticipantSchema
from app.schemas.recurring import RecurringSchema
from app.schemas.settlements import SettlementSchema


class BalanceRowSchema(Strict):
    participantId = fields.String(required=True, attribute="participant_id")
    displayName = fields.String(required=True, attribute="display_name")
    net = fields.Integer(required=True, metadata={
        "description": "paid - owed (+ settlements), minor units; positive = is owed money"})


class PayToSchema(Strict):
    type = fields.String(required=True, metadata={
        "description": "PAYPAL, VENMO, REVOLUT, MONZO, UPI or SEPA"})
    url = fields.String(metadata={"description": "A link that opens the service with the "
                                                 "amount and currency filled in where it "
                                                 "takes them (every part percent-encoded)"})
    epcQr = fields.String(metadata={"description": "SEPA (EUR): the EPC069-12 text a banking "
                                                   "app scans from a QR code"})


class TransferSchema(Strict):
    fromParticipantId = fields.String(required=True, attribute="from_id")
    toParticipantId = fields.String(required=True, attribute="to_id")
    amount = fields.Integer(required=True)
    payTo = fields.List(fields.Nested(PayToSchema), attribute="pay_to", dump_default=list,
                        metadata={"description": "How to pay the payee, from their payment "
                                                 "methods (empty for a guest or none set)",
                                  "example": [{"type": "PAYPAL",
                                               "url": "https://paypal.me/bo/12.30EUR"}]})


class CurrencyBalanceRowSchema(Strict):
    participantId = fields.String(required=True, attribute="participant_id")
    net = fields.Integer(required=True, metadata={"description": "Minor units of the section's "
                                                                "currency"})


class CurrencyBalancesSchema(Strict):
    """One kept currency: its own nets (summing to 0) and minimal settle-up plan."""

    currency = fields.String(required=True)
    balances = fields.List(fields.Nested(CurrencyBalanceRowSchema), required=True,
                           attribute="rows")
    transfers = fields.List(fields.Nested(TransferSchema), required=True)


class DisplaySchema(Strict):
    """The main nets shown in another currency at today's reference rate (nothing stored)."""

    currency = fields.String(required=True)
    rate = fields.String(required=True, metadata={"description": "1 group-currency unit in "
                                                                 "currency (decimal string)"})
    rateDate = fields.String(required=True, attribute="rate_date")
    balances = fields.List(fields.Nested(CurrencyBalanceRowSchema), required=True,
                           attribute="rows")
    transfers = fields.List(fields.Nested(TransferSchema), required=True)


class BalancesSchema(Strict):
    """Dumps a ledger Balances (nets folded over the roster, and the settle-up plan)."""

    currency = fields.String(required=True)
    revision = fields.Integer(required=True, metadata={
        "description": "The group's revision (as in its ETag, /changes and home)"})
    balanceRevision = fields.Integer(required=True, attribute="balance_revision", metadata={
        "description": "The balance row's money-write counter: +1 per expense, settlement or "
                       "conversion write"})
    balances = fields.List(fields.Nested(BalanceRowSchema), required=True, attribute="rows")
    transfers = fields.List(fields.Nested(TransferSchema), required=True, metadata={
        "description": "Settles every net with as few payments as possible"})
    otherCurrencies = fields.List(fields.Nested(CurrencyBalancesSchema), required=True,
                                  attribute="other_currencies", metadata={
        "description": "One section per currency with kept rows whose nets are not all 0"})
    display = fields.Nested(DisplaySchema, metadata={"description": "With ?displayCurrency="})

    @post_dump
    def _display_only_when_asked(self, data, **kwargs):
        if data.get("display") is None:
            data.pop("display", None)
        return data


class BalancesArgsSchema(Strict):
    displayCurrency = fields.String(validate=CURRENCY, metadata={
        "description": "Also show the main nets in this currency (today's ECB rate)"})


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


class ExportArgsSchema(Strict):
    format = fields.String(load_default="csv", validate=validate.OneOf(["csv", "json"]))


class ExportSchema(Strict):
    """``?format=json``: dumps a ledger GroupExport (documented as an object, not by field)."""

    group = fields.Nested(GroupSchema)
    participants = fields.List(fields.Nested(ParticipantSchema))
    expenses = fields.List(fields.Nested(ExpenseSchema))
    settlements = fields.List(fields.Nested(SettlementSchema))
    balances = fields.Nested(BalancesSchema)
    # Every expense's comments (oldest first) and every recurring template, so the
    # tailspend-json import brings the whole group back.
    comments = fields.List(fields.Nested(CommentSchema))
    recurring = fields.List(fields.Nested(RecurringSchema))
