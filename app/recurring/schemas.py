"""Recurring expense templates: an expense body plus a schedule."""
from __future__ import annotations

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from app.ledger import expense_input
from app.ledger.expense_input import NOT_BOTH_FORMS, ONE_FORM
from app.api.schemas import (DerivedBoolean, DerivedInteger, DerivedList, DerivedString,
                             StrictBoolean, StrictInteger)
from app.ledger.schemas import (BOTH_FORMS_REFUSED, DateString, ExpenseBodySchema, FullBody,
                                ItemSchema, PaymentReplySchema, _ExpenseFields, expense_of,
                                stored_payments)

FREQUENCIES = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")


# What end_or_count enforces, as JSON Schema.
END_OR_COUNT = "endDate or count, never both (400 VALIDATION_ERROR)."
END_AND_COUNT = {"required": ["endDate", "count"],
                 "properties": {"endDate": {"type": "string"}, "count": {"type": "integer"}}}


class _ScheduleFields(_ExpenseFields):
    """The expense fields but ``date`` (occurrence dates come from the schedule), plus it.
    Loads as the schedule's fields with the expense part as the ledger's ExpenseInput
    under ``expense``."""

    class Meta:
        exclude = ("date",)

    frequency = fields.String(validate=validate.OneOf(FREQUENCIES))
    interval = StrictInteger(validate=validate.Range(min=1, max=1000))
    startDate = DateString()
    endDate = DateString(allow_none=True)
    count = StrictInteger(allow_none=True, validate=validate.Range(min=1, max=10000))
    timeZone = fields.String(validate=validate.Length(min=1, max=64), metadata={
        "description": "IANA time zone of the occurrence dates (default UTC)",
        "example": "Europe/Paris"})

    @validates_schema
    def end_or_count(self, data, **kwargs):
        if data.get("endDate") and data.get("count"):
            raise ValidationError("Send endDate or count, not both.", "count")

    @post_load
    def _expense_input(self, data, **kwargs):
        data["expense"] = expense_of(data)
        return data


class RecurringCreateSchema(FullBody, _ScheduleFields):
    """The expense body (``items`` or the shorthand, no ``date``) plus the schedule."""

    frequency = fields.String(required=True, validate=validate.OneOf(FREQUENCIES))
    startDate = DateString(required=True)
    # Not Meta.description: apispec then drops additionalProperties: false.
    OPENAPI_EXTRA = {"anyOf": ONE_FORM, "not": {"anyOf": [NOT_BOTH_FORMS, END_AND_COUNT]},
                     "description": "A recurring expense: the expense body (no date) plus its "
                                    "schedule. Items or shorthand: " + expense_input.EITHER_FORM
                                    + " " + BOTH_FORMS_REFUSED + " " + END_OR_COUNT}


class RecurringPatchSchema(_ScheduleFields):
    """Any subset of the fields, ``paused``, and the ``updatedAt`` the edit was based on."""

    paused = StrictBoolean()
    updatedAt = fields.String(required=True, validate=validate.Length(min=1, max=40))
    OPENAPI_EXTRA = {"not": {"anyOf": [NOT_BOTH_FORMS, END_AND_COUNT]},
                     "description": "An edit of a recurring expense: any subset of its fields, "
                                    "paused, and the updatedAt it was based on. Items or "
                                    "shorthand, never both: " + expense_input.EITHER_FORM + " "
                                    + END_OR_COUNT}


class RecurringSchema(ExpenseBodySchema):
    """Dumps a recurring Template: the body from the row's Template map, then the schedule."""

    description = fields.String(required=True, attribute="Template.Description")
    category = fields.String(allow_none=True, attribute="Template.Category")
    amount = fields.Integer(required=True, attribute="Template.Amount")
    payments = DerivedList(lambda row: stored_payments(row.Template),
                           fields.Nested(PaymentReplySchema), required=True)
    items = fields.List(fields.Nested(ItemSchema), required=True, attribute="Template.Items")
    recurringId = fields.String(required=True, attribute="RecurringId")
    currency = DerivedString(lambda row: row.Template.Currency or row.Currency, required=True,
                             metadata={"description": "ISO 4217 code of the body's amounts"})
    exchangeRate = fields.String(attribute="Template.ExchangeRate", metadata={
        "description": "A decimal string, or \"auto\": each occurrence's ECB rate"})
    rateSource = fields.String(attribute="Template.RateSource")
    rateDate = fields.String(attribute="Template.RateDate")
    groupAmount = fields.Integer(attribute="Template.GroupAmount")
    frequency = fields.String(required=True, attribute="Frequency")
    interval = DerivedInteger(lambda row: int(row.Interval or 1), required=True)
    startDate = fields.String(required=True, attribute="StartDate")
    endDate = fields.String(allow_none=True, attribute="EndDate")
    count = DerivedInteger(lambda row: int(row.Count) if row.Count else None, allow_none=True)
    timeZone = DerivedString(lambda row: row.TimeZone or "UTC", required=True)
    paused = DerivedBoolean(lambda row: bool(row.Paused), required=True)
    nextDate = fields.String(allow_none=True, attribute="next_date", metadata={
        "description": "Date of the next occurrence; null when paused or finished"})
    nextRunAt = fields.String(allow_none=True, attribute="next_run_at", metadata={
        "description": "When it is recorded: local midnight of nextDate, in UTC"})
    lastDate = fields.String(allow_none=True, attribute="LastSlot")
    createdBy = fields.String(allow_none=True, attribute="CreatedBy")
    createdAt = fields.String(required=True, attribute="CreatedAt")
    updatedAt = fields.String(required=True, attribute="UpdatedAt")

