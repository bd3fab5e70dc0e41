"""Settlements."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from app.schemas.common import CURRENCY, ExchangeRate, Id, Money, Strict, StrictInteger
from app.schemas.expenses import DateString, _Converted
from models.groups import RATE_SOURCES

NOTE = validate.Length(max=500)


class _SettlementFields(Strict):
    payerId = Id()
    payeeId = Id()
    amount = Money()
    date = DateString()
    note = fields.String(allow_none=True, validate=NOTE)
    currency = fields.String(validate=CURRENCY, metadata={
        "description": "ISO 4217 code of amount (default the group's)"})
    exchangeRate = ExchangeRate(allow_none=True)
    groupAmount = Money(allow_none=True, metadata={
        "description": "What it was worth in group minor units (the rate is derived)"})

    @validates_schema
    def different_people(self, data, **kwargs):
        if data.get("payerId") and data.get("payerId") == data.get("payeeId"):
            raise ValidationError("Must differ from payerId.", "payeeId")


class SettlementCreateSchema(_SettlementFields):
    """``{payerId, payeeId, amount, date?, note?}``: the payer paid the payee back."""

    payerId = Id(required=True)
    payeeId = Id(required=True)
    amount = Money(required=True)


class SettlementPatchSchema(_SettlementFields):
    version = StrictInteger(required=True, validate=validate.Range(min=1))


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
