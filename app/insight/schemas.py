"""Insight and getting paid: payment methods (and, in app.ledger.schemas, pay links)."""
from __future__ import annotations

from marshmallow import fields, validate

from app.money.pay_methods import MAX_METHODS, TYPES
from app.ledger.schemas import PayToSchema
from app.api.schemas import CURRENCY, Id, Strict
from app.ledger.schemas import DateString

METHODS_EXAMPLE = {"methods": [{"type": "PAYPAL", "handle": "bojones"},
                               {"type": "SEPA", "iban": "DE89370400440532013000",
                                "name": "Bo Jones"}]}


class PaymentMethodSchema(Strict):
    type = fields.String(required=True, validate=validate.OneOf(TYPES))
    handle = fields.String(validate=validate.Length(min=1, max=320), metadata={
        "description": "PAYPAL, VENMO, REVOLUT, MONZO: the service's username (its own "
                       "character rules); UPI: the VPA, name@bank"})
    iban = fields.String(validate=validate.Length(min=5, max=64), metadata={
        "description": "SEPA: the IBAN (spaces allowed; checked by its checksum)"})
    name = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "SEPA (required): the account holder, in Latin letters (accents "
                       "allowed), digits, space and / - ? : ( ) . , ' + & (the EPC QR's set); "
                       "UPI (optional): the payee name. No control, format or line separator "
                       "characters in any field"})


class PaymentMethodsSchema(Strict):
    methods = fields.List(fields.Nested(PaymentMethodSchema), required=True,
                          validate=validate.Length(max=MAX_METHODS))



class StatsArgsSchema(Strict):
    by = fields.String(load_default="category",
                       validate=validate.OneOf(["category", "month", "participant"]))
    from_ = DateString(data_key="from")
    to = DateString()


class MyStatsArgsSchema(Strict):
    by = fields.String(load_default="category",
                       validate=validate.OneOf(["category", "month", "group"]))
    from_ = DateString(data_key="from")
    to = DateString()
    displayCurrency = fields.String(validate=CURRENCY)


class TallySchema(Strict):
    spent = fields.Integer(required=True, metadata={"description": "Owed shares (what was "
                                                                   "consumed), minor units"})
    paid = fields.Integer(required=True, metadata={"description": "Payments, minor units"})
    count = fields.Integer(required=True, metadata={"description": "Expenses counted"})


class StatsRowSchema(TallySchema):
    key = fields.String(required=True, allow_none=True, metadata={
        "description": "The category as stored (null = none), the month YYYY-MM, the "
                       "participantId or the groupId"})


class StatsSectionSchema(Strict):
    currency = fields.String(required=True)
    total = fields.Nested(TallySchema, required=True)
    rows = fields.List(fields.Nested(StatsRowSchema), required=True)


STATS_EXAMPLE = {"currency": "EUR", "by": "category", "from": "2026-01-01", "to": "2026-12-31",
                 "total": {"spent": 12000, "paid": 12000, "count": 3},
                 "rows": [{"key": "FOOD", "spent": 9000, "paid": 9000, "count": 2},
                          {"key": None, "spent": 3000, "paid": 3000, "count": 1}],
                 "otherCurrencies": []}


class GroupStatsSchema(Strict):
    currency = fields.String(required=True)
    by = fields.String(required=True)
    from_ = fields.String(data_key="from", attribute="from", allow_none=True, required=True)
    to = fields.String(allow_none=True, required=True)
    total = fields.Nested(TallySchema, required=True)
    rows = fields.List(fields.Nested(StatsRowSchema), required=True, metadata={
        "description": "By spent descending (month: ascending)"})
    otherCurrencies = fields.List(fields.Nested(StatsSectionSchema), required=True, metadata={
        "description": "Kept rows, one section per currency"})


class StatsDisplaySchema(Strict):
    currency = fields.String(required=True)
    rate = fields.String(required=True, metadata={"description": "The first section's rate"})
    rates = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "Each section currency's rate into the display currency"})
    rateDate = fields.String(required=True)
    total = fields.Nested(TallySchema, required=True)


class MyStatsSchema(Strict):
    by = fields.String(required=True)
    from_ = fields.String(data_key="from", attribute="from", allow_none=True, required=True)
    to = fields.String(allow_none=True, required=True)
    sections = fields.List(fields.Nested(StatsSectionSchema), required=True)
    display = fields.Nested(StatsDisplaySchema)


class ReminderCreateSchema(Strict):
    participantId = Id(required=True, metadata={
        "description": "A USER participant who, in the group's settle-up plan, pays the caller"})


class OwedSchema(Strict):
    currency = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={"description": "Minor units of currency"})
    payTo = fields.List(fields.Nested(PayToSchema), attribute="pay_to", dump_default=list,
                        metadata={"description": "The caller's pay links the reminder carries"})


class ReminderSchema(Strict):
    participantId = fields.String(required=True, attribute="participant_id")
    owed = fields.List(fields.Nested(OwedSchema), required=True, metadata={
        "description": "What the recipient pays the caller in the plan: the main currency "
                       "and each kept-currency section where they owe"})
    nextReminderAt = fields.Integer(required=True, attribute="next_reminder_at", metadata={
        "description": "Unix seconds: the next reminder to this user in this group is allowed "
                       "from then"})


REMINDER_REQUEST_EXAMPLE = {"participantId": "6f1c2a7e-2b7d-4c39-9d0e-3f0a1b2c3d4e"}
REMINDER_EXAMPLE = {"participantId": "6f1c2a7e-2b7d-4c39-9d0e-3f0a1b2c3d4e",
                    "owed": [{"currency": "EUR", "amount": 1230,
                              "payTo": [{"type": "PAYPAL",
                                         "url": "https://paypal.me/bojones/12.30EUR"}]}],
                    "nextReminderAt": 1796169600}


SETTLE_DIRECTIONS = ("PAY", "RECEIVE")


class SettleWithPersonSchema(Strict):
    currency = fields.String(required=True, validate=CURRENCY, metadata={
        "description": "The currency section to settle (a group's main or a kept one)"})
    direction = fields.String(required=True, validate=validate.OneOf(SETTLE_DIRECTIONS),
                              metadata={"description": "PAY: I pay them; RECEIVE: they pay me"})
    date = DateString()
    note = fields.String(validate=validate.Length(max=500), metadata={
        "description": "Recorded on every settlement"})


class PersonSettlementSchema(Strict):
    groupId = fields.String(required=True)
    settlementId = fields.String(required=True)
    amount = fields.Integer(required=True, metadata={
        "description": "Minor units of currency: that group's transfer between us"})


class PersonSettleResultSchema(Strict):
    """One payment recorded as a settlement in each group with a transfer between us."""

    settlements = fields.List(fields.Nested(PersonSettlementSchema), required=True)
    total = fields.Integer(required=True, metadata={"description": "The sum: the one payment"})
    currency = fields.String(required=True)
    direction = fields.String(required=True, metadata={"enum": list(SETTLE_DIRECTIONS)})
    payTo = fields.List(fields.Nested(PayToSchema), required=True, metadata={
        "description": "How to pay the total to the payee, from their payment methods"})
