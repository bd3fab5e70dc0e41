"""The ledger's balances replies (GET /groups/{groupId}/balances): nets, the settle-up plan,
households and the display section (camelCase only here). app.ledger.schemas re-exports
them, so other areas keep importing the ledger's schemas from one place."""
from __future__ import annotations

from marshmallow import fields, post_dump, validate

from app.api.schemas import CURRENCY, OmitNone, Strict
from app.money.pairwise import VIEWS

# ---------------------------------------------------------------- balances
# Balances, the settle-up plan (simplified or pairwise), households, FAIR rounding and the
# group export.

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


class TransferSchema(OmitNone, Strict):
    OMIT_NONE = ("fromHousehold", "toHousehold")

    fromParticipantId = fields.String(required=True, attribute="from_id", metadata={
        "description": "With households: the paying unit's representative"})
    toParticipantId = fields.String(required=True, attribute="to_id", metadata={
        "description": "With households: the receiving unit's representative"})
    fromHousehold = fields.String(attribute="from_household", metadata={
        "description": "The paying household (absent: a person on their own)"})
    toHousehold = fields.String(attribute="to_household", metadata={
        "description": "The receiving household (absent: a person on their own)"})
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
    cumulative = fields.String(required=True, metadata={"example": "-0.333333", "description":
                               "Cumulative rounding (owed - exact share, every live item), "
                               "minor units, rounded half-even to 6 places"})


class _Omitted(Strict):
    """Drops the optional sections (``OMITTED``) a reply does not have."""

    OMITTED: tuple = ("rounding",)

    @post_dump
    def _omit_absent(self, data, **kwargs):
        return {k: v for k, v in data.items() if v is not None or k not in self.OMITTED}


FAIR_ONLY = {"description": "FAIR groups only: each participant's cumulative rounding"}


class CurrencyBalancesSchema(_Omitted):
    """One kept currency: its own nets (summing to 0) and minimal settle-up plan."""

    currency = fields.String(required=True)
    balances = fields.List(fields.Nested(CurrencyBalanceRowSchema), required=True,
                           attribute="rows")
    transfers = fields.List(fields.Nested(TransferSchema), required=True)
    rounding = fields.List(fields.Nested(RoundingSchema), metadata=FAIR_ONLY)


class DisplaySchema(Strict):
    """The main nets shown in another currency at today's reference rate (nothing stored)."""

    currency = fields.String(required=True)
    rate = fields.String(required=True, metadata={"description": "1 group-currency unit in "
                                                                 "currency (decimal string)"})
    rateDate = fields.String(required=True, attribute="rate_date")
    balances = fields.List(fields.Nested(CurrencyBalanceRowSchema), required=True,
                           attribute="rows")
    transfers = fields.List(fields.Nested(TransferSchema), required=True)


class HouseholdSchema(Strict):
    household = fields.String(required=True, attribute="label", metadata={
        "description": "Its label, as its first member set it"})
    participantIds = fields.List(fields.String(), required=True, attribute="participant_ids")
    net = fields.Integer(required=True, metadata={"description": "The members' summed net "
                                                                 "(main currency)"})


class BalancesSchema(_Omitted):
    """Dumps a ledger Balances (nets folded over the roster, and the settle-up plan)."""

    OMITTED = ("display", "households", "rounding")
    currency = fields.String(required=True)
    revision = fields.Integer(required=True, metadata={
        "description": "The group's revision (as in its ETag, /changes and home)"})
    balanceRevision = fields.Integer(required=True, attribute="balance_revision", metadata={
        "description": "The balance row's money-write counter: +1 per expense, settlement or "
                       "conversion write"})
    balances = fields.List(fields.Nested(BalanceRowSchema), required=True, attribute="rows")
    transfers = fields.List(fields.Nested(TransferSchema), required=True, metadata={
        "description": "simplified: settles every net with as few payments as possible "
                       "(between units when someone has a household); pairwise: the netted "
                       "debt between each two people"})
    view = fields.String(required=True, metadata={"enum": list(VIEWS)})
    otherCurrencies = fields.List(fields.Nested(CurrencyBalancesSchema), required=True,
                                  attribute="other_currencies", metadata={
        "description": "One section per currency with kept rows whose nets are not all 0"})
    display = fields.Nested(DisplaySchema, metadata={"description": "With ?displayCurrency="})
    households = fields.List(fields.Nested(HouseholdSchema), metadata={
        "description": "When any participant has a household: every household, zero nets "
                       "included; the plans then settle units (a household, or a person on "
                       "their own)"})
    rounding = fields.List(fields.Nested(RoundingSchema), metadata=FAIR_ONLY)


class BalancesArgsSchema(Strict):
    displayCurrency = fields.String(validate=CURRENCY, metadata={
        "description": "Also show the main nets in this currency (today's ECB rate)"})
    view = fields.String(validate=validate.OneOf(VIEWS), metadata={"description":
                         "simplified: the fewest payments; pairwise: each share owes each "
                         "payer in proportion, netted per pair. Default: simplifyDebts"})
