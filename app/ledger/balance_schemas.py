"""The ledger's balance replies: nets, the settle-up transfers (simplified or pairwise) with
their payTo links, kept-currency sections, the display section, FAIR rounding, and a
participant's statement (camelCase only here)."""
from __future__ import annotations

from marshmallow import fields, post_dump, validate

from app.api.schemas import CURRENCY, Strict
from app.money.pairwise import VIEWS

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


class RoundingSchema(Strict):
    participantId = fields.String(required=True)
    cumulative = fields.String(required=True, metadata={
        "description": "The participant's cumulative rounding in this currency (owed - "
                       "exact share over every live item), minor units, a decimal string "
                       "rounded half-even to 6 places", "example": "-0.333333"})


def _rounding_field():
    return fields.List(fields.Nested(RoundingSchema), metadata={
        "description": "FAIR groups only: each participant's cumulative rounding"})


class CurrencyBalancesSchema(Strict):
    """One kept currency: its own nets (summing to 0) and minimal settle-up plan."""

    currency = fields.String(required=True)
    balances = fields.List(fields.Nested(CurrencyBalanceRowSchema), required=True,
                           attribute="rows")
    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    rounding = _rounding_field()

    @post_dump
    def _rounding_only_when_fair(self, data, **kwargs):
        if data.get("rounding") is None:
            data.pop("rounding", None)
        return data


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
        "description": "view simplified: settles every net with as few payments as "
                       "possible; pairwise: the netted debt between each two people"})
    view = fields.String(required=True, metadata={"enum": list(VIEWS), "description":
                                                  "Which transfers these are"})
    otherCurrencies = fields.List(fields.Nested(CurrencyBalancesSchema), required=True,
                                  attribute="other_currencies", metadata={
        "description": "One section per currency with kept rows whose nets are not all 0"})
    display = fields.Nested(DisplaySchema, metadata={"description": "With ?displayCurrency="})
    rounding = _rounding_field()

    @post_dump
    def _display_only_when_asked(self, data, **kwargs):
        for name in ("display", "rounding"):
            if data.get(name) is None:
                data.pop(name, None)
        return data


class BalancesArgsSchema(Strict):
    displayCurrency = fields.String(validate=CURRENCY, metadata={
        "description": "Also show the main nets in this currency (today's ECB rate)"})
    view = fields.String(validate=validate.OneOf(VIEWS), metadata={
        "description": "simplified: transfers settle every net with as few payments as "
                       "possible; pairwise: transfers are the debts between each two people "
                       "(each share owes each payer in proportion, settlements and income "
                       "reversed, netted per pair). Default: the group's simplifyDebts"})


class StatementArgsSchema(Strict):
    currency = fields.String(validate=CURRENCY, metadata={
        "description": "A kept currency's section (default: the group's currency)"})
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=100))
    cursor = fields.String(load_default=None, validate=validate.Length(min=1, max=2048))


class StatementLineSchema(Strict):
    """One row that moved the participant's net."""

    kind = fields.String(required=True, metadata={
        "enum": ["EXPENSE", "INCOME", "SETTLEMENT", "CONVERSION"]})
    id = fields.String(required=True, metadata={
        "description": "The expense, settlement or conversion id"})
    date = fields.String(required=True, metadata={
        "description": "The row's date (a conversion's: the day it was made)"})
    description = fields.String(allow_none=True, required=True, metadata={
        "description": "An expense's description, a settlement's note, a conversion's rate"})
    paid = fields.Integer(required=True, metadata={
        "description": "What the participant paid (INCOME: minus what they received; a "
                       "settlement: its amount for the payer)"})
    owed = fields.Integer(required=True, metadata={
        "description": "What the participant owed (INCOME: minus their share; a "
                       "settlement: its amount for the payee)"})
    effect = fields.Integer(required=True, metadata={
        "description": "paid - owed: how the row moved the net (never 0)"})
    runningNet = fields.Integer(required=True, attribute="running_net", metadata={
        "description": "The net after this row; the last page's last equals net"})


class StatementSchema(Strict):
    """A participant's statement in one currency section, oldest first."""

    currency = fields.String(required=True)
    net = fields.Integer(required=True, metadata={
        "description": "The participant's net in this section now (as balances shows it)"})
    items = fields.List(fields.Nested(StatementLineSchema), required=True, metadata={
        "description": "Oldest first by date, then creation; a page may hold fewer than "
                       "limit and still have a nextCursor"})
    nextCursor = fields.String(allow_none=True, required=True)
