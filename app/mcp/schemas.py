"""MCP tool arguments and results: the REST schemas, with money as decimal strings on input.

Each tool's arguments are the REST route's body or query plus the ids its path carries.
Money goes in as a decimal string in the body's currency (``"12.30"``; add_expense's and
record_settlement's ``currency``, default the group's; ``groupAmount`` in the group's) and is converted
exactly to minor units by the tool before the REST schema validates the converted body, so
every limit and rule is the REST route's own. Results are the REST response schemas.

Input schemas are flat objects: no ``anyOf``/``oneOf``/``allOf``/``not`` at their root
(some hosts refuse a whole tool list over one), so add_expense's items-or-shorthand rule is
said in its description and enforced by the REST schema (app.ledger.expense_input, once).
Every property carries a description an assistant can act on: the names every tool shares
are described once, in PROPERTY_TEXT."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from app.limits import MAX_EXTRA_NAME, MAX_HOUSEHOLD, MAX_SETTLEMENT_NOTE
from app.ledger.expense_input import TEXT_MAX
from app.money.splits import SPLIT_MODES
from app.api.schemas import (CURRENCY, DisplayName, ExchangeRate, Id, PageArgsSchema, Strict,
                             StrictInteger)
from app.ledger.schemas import (CommentBodySchema, DateString, ExpenseCreateSchema,
                                ExpenseListArgsSchema, ExpensePatchSchema, ExpenseSchema)
from app.groups.schemas import GroupCreateSchema, GroupSchema, GuestCreateSchema, ParticipantSchema
from app.ledger.schemas import SettlementCreateSchema, SettlementSchema

# Money a tool takes is never negative: no sign at all (EXACT values may be "0") ...
DECIMAL_PATTERN = r"^[0-9]{1,30}(\.[0-9]{1,30})?$"
# ... but an extra: a discount is a negative one.
SIGNED_DECIMAL_PATTERN = r"^-?[0-9]{1,30}(\.[0-9]{1,30})?$"

# Descriptions of the argument names several tools share (a field's own description wins).
PROPERTY_TEXT = {
    "groupId": "The group's id (groupId from list_groups or create_group).",
    "expenseId": "The expense's id (expenseId from list_expenses or add_expense).",
    "settlementId": "The settlement's id (settlementId from list_settlements, "
                    "record_settlement or settle_up).",
    "participantId": "A participant's id in this group (participantId from get_group; "
                     "the user's own is myParticipantId in list_groups).",
    "limit": "At most this many results (1-100, default 25).",
    "cursor": "nextCursor of the previous page, to get the next one; omit for the first page.",
    "from": "Only expenses on or after this date (YYYY-MM-DD).",
    "to": "Only expenses on or before this date (YYYY-MM-DD).",
    "description": "What the expense was for, e.g. \"Dinner at Luigi's\" (1-200 characters).",
    "date": "The day it happened (YYYY-MM-DD); defaults to today (UTC) when omitted.",
    "category": "Optional free-text category (at most 50 characters), e.g. FOOD, GROCERIES, "
                "TRANSPORT, ACCOMMODATION, ENTERTAINMENT, UTILITIES, SHOPPING or OTHER; "
                "reuse the group's own (list_expenses shows them); null clears it.",
    "splitMode": "How the amount is shared: EQUAL (evenly), EXACT (each split's value is "
                 "what they owe, a decimal string), PERCENT (value in basis points, "
                 "2500 = 25%, summing to 10000), SHARES (value is a positive weight) or "
                 "ADJUSTMENT (value is a signed decimal string added to an equal share of "
                 "what the adjustments leave).",
    "kind": "EXPENSE (the default: payments name who paid) or INCOME (money the group "
            "received, e.g. a deposit back or a refund: payments name who received it, "
            "splits whom it belongs to).",
    "name": "A label for this item, e.g. \"Wine\" (optional).",
    "note": "Optional note (at most 500 characters).",
    "version": "The version you read (version from get_expense, list_expenses or "
               "add_expense); a stale one is refused with VERSION_CONFLICT: read it again.",
    "body": "The comment text (1-2000 characters); @handle mentions notify those members.",
    "displayName": "The name shown for them (1-100 characters).",
    "role": "MEMBER (may add expenses; the default) or VIEWER (read-only), held once the "
            "guest's place is claimed by a user.",
    "idempotencyKey": "Any unique string (1-128 characters); reuse the same one when retrying "
                      "this call: the same key with the same arguments within 24 h returns "
                      "the first result and writes nothing.",
}


def DecimalMoney(*, description: str = "", **kwargs) -> fields.String:  # noqa: N802
    """An amount as a decimal string in the call's currency, at most its number of decimals."""
    return fields.String(validate=validate.Regexp(DECIMAL_PATTERN, error=(
        "Must be a positive decimal string such as \"12.30\".")), metadata={
        "example": "12.30", "description": description or (
            "A decimal string in the call's currency (default the group's), e.g. \"12.30\" "
            "(no sign, no more decimals than the currency has)")}, **kwargs)


class SplitValue(fields.Field):
    """EXACT: a decimal string; PERCENT: basis points; SHARES: a weight; EQUAL: ignored."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValidationError("Must be a decimal string (EXACT) or an integer.")
        return value


class GroupArgs(Strict):
    groupId = Id(required=True)


class ListGroupsArgs(PageArgsSchema):
    """The caller's groups, a page at a time (``limit``, ``cursor``), optionally by name."""

    name = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "Only groups whose name contains this text (case-insensitive)."})


class ListExpensesArgs(ExpenseListArgsSchema):
    groupId = Id(required=True)
    text = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "Only expenses whose description or item names contain this text "
                       "(case-insensitive)."})
    category = fields.String(validate=validate.Length(min=1, max=TEXT_MAX["category"]), metadata={
        "description": "Only expenses of this category (case-insensitive exact match)."})
    participantId = Id(metadata={
        "description": "Only expenses this participant paid for or shares in (participantId "
                       "from get_group)."})


class ExpenseArgs(GroupArgs):
    expenseId = Id(required=True)


class SettlementArgs(GroupArgs):
    settlementId = Id(required=True)


class McpPaymentSchema(Strict):
    participantId = Id(required=True, metadata={
        "description": "Who paid (participantId from get_group)."})
    amount = DecimalMoney(required=True, description="How much they paid, a decimal string "
                                                     "in the expense's currency (\"12.30\").")


class McpSplitSchema(Strict):
    participantId = Id(required=True, metadata={
        "description": "Who shares this item (participantId from get_group)."})
    value = SplitValue(metadata={
        "type": ["string", "integer"],
        "description": "EXACT: what they owe as a decimal string (\"4.10\"); PERCENT: basis "
                       "points (2500 = 25%); SHARES: a positive weight; ADJUSTMENT: a "
                       "signed decimal string (\"-2.50\", \"0\"); EQUAL: omit."})


class McpItemSchema(Strict):
    name = fields.String()
    amount = DecimalMoney(required=True, description="The item's amount, a decimal string "
                                                     "(\"12.30\").")
    splitMode = fields.String(required=True, validate=validate.OneOf(SPLIT_MODES))
    splits = fields.List(fields.Nested(McpSplitSchema), required=True, metadata={
        "description": "Who shares this item, and their value for the splitMode."})


class McpExtraSchema(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=MAX_EXTRA_NAME),
                         metadata={"description": "tax, tip, service, discount, or the user's "
                                                  "own words (\"corkage\")."})
    amount = fields.String(required=True, validate=validate.Regexp(SIGNED_DECIMAL_PATTERN, error=(
        "Must be a decimal string such as \"1.20\" or, for a discount, \"-2.00\".")),
        metadata={"example": "1.20", "description": (
            "The extra as a decimal string in the expense's currency; negative for a "
            "discount (\"-2.00\"). \"plus 10% tip\": work out 10% of the items' total.")})


class _McpExpenseFields:
    """The decimal-string money fields of add_expense and update_expense."""

    extras = fields.List(fields.Nested(McpExtraSchema), allow_none=True, metadata={
        "description": "Tax, tip, service charge or discount on top of the items: each is "
                       "shared in proportion to what each person owes for the items. The "
                       "total (amount, and the payments) includes them; with the shorthand "
                       "the one item is amount minus the extras. null or [] clears them."})

    payments = fields.List(fields.Nested(McpPaymentSchema), metadata={
        "description": "Who paid how much; the payments add up to the total."})
    items = fields.List(fields.Nested(McpItemSchema), metadata={
        "description": "The itemised form: each item with its amount, splitMode and splits. "
                       "Send items, or the shorthand amount + splitMode + splits, not both."})
    amount = DecimalMoney(description="Shorthand (one item): the total, a decimal string "
                                      "(\"12.30\"). With items it may be sent as a check "
                                      "that they add up to it.")
    splits = fields.List(fields.Nested(McpSplitSchema), metadata={
        "description": "Shorthand (one item): who shares the total, and their value for the "
                       "splitMode."})
    idempotencyKey = fields.String(validate=validate.Length(min=1, max=128))


def _currency(**kwargs) -> fields.String:
    """add_expense's and record_settlement's currency: kept, or converted at a rate."""
    # A plain function, not OneOf: the JSON Schema names the rule, not 300 codes.
    return fields.String(validate=lambda code: CURRENCY(code), metadata={
        "pattern": "^[A-Z]{3}$", "description": (
            "ISO 4217 code of every amount of this call, e.g. USD or JPY (default: the group "
            "currency, from list_groups). In another currency, send exchangeRate or "
            "groupAmount to convert it into the group currency; with neither it is kept in "
            "its own currency, with its own balances (get_balances otherCurrencies).")},
        **kwargs)


def _exchange_rate(**kwargs) -> fields.String:
    field = ExchangeRate(allow_none=True, **kwargs)
    field.metadata["description"] = (  # ExchangeRate's own text is REST's
        "Converts another currency: 1 unit of currency = this many units of the group "
        "currency, a decimal string such as \"1.0832\" (at most 12 significant digits), or "
        "\"auto\" for the ECB reference rate of the date (the latest published on or before "
        "it; a currency the ECB does not publish, or a date before 1999, is refused with "
        "RATE_UNAVAILABLE: ask the user for the rate). Omit it (and groupAmount) to keep the "
        "amounts in their own currency.")
    return field


def _group_amount(**kwargs) -> fields.String:
    return DecimalMoney(allow_none=True, description=(
        "Converts another currency: what was really charged in the GROUP currency, a decimal "
        "string (\"27.77\"); the rate is derived from it. With exchangeRate too it must equal "
        "the amount at that rate."), **kwargs)


class _McpRateFields:
    """add_expense's and update_expense's currency and rate, under the REST expense schemas'
    field names (snake_case, the API's through data_key; record_settlement's take the
    settlement schema's, from the same fields)."""

    currency = _currency()
    exchange_rate = _exchange_rate(data_key="exchangeRate")
    group_amount = _group_amount(data_key="groupAmount")


class AddExpenseArgs(_McpRateFields, _McpExpenseFields, ExpenseCreateSchema):
    """The REST expense body with decimal-string money, plus the group and an idempotency key."""

    TO_INPUT = False  # the tool's arguments: the ExpenseInput comes after the decimals

    groupId = Id(required=True)
    payments = fields.List(fields.Nested(McpPaymentSchema), required=True, metadata={
        "description": "Who paid how much; the payments add up to the total."})


class UpdateExpenseArgs(_McpRateFields, _McpExpenseFields, ExpensePatchSchema):
    """The REST edit (any subset of the fields) with decimal-string money and the version."""

    TO_INPUT = False

    groupId = Id(required=True)
    expenseId = Id(required=True)
    currency = fields.String(validate=lambda code: CURRENCY(code), metadata={
        "pattern": "^[A-Z]{3}$", "description": (
            "Only to change the expense's currency: the ISO 4217 code the amounts are in "
            "(default: the expense's own currency, from get_expense).")})


class RecordSettlementArgs(SettlementCreateSchema):
    """The REST settlement body with decimal-string money, plus the group and an idempotency
    key; loaded under the SettlementInput's field names, its money still decimal."""

    TO_INPUT = False  # the tool's arguments: the SettlementInput comes after the decimals

    currency = _currency()
    exchange_rate = _exchange_rate(data_key="exchangeRate")
    group_amount = _group_amount(data_key="groupAmount")
    groupId = Id(required=True)
    payer_id = Id(required=True, data_key="payerId", metadata={
        "description": "Who paid the money back (participantId from get_group); for a "
                       "transfer of get_balances it is that transfer's fromParticipantId."})
    payee_id = Id(required=True, data_key="payeeId", metadata={
        "description": "Who received it (participantId); for a transfer of get_balances it "
                       "is that transfer's toParticipantId."})
    amount = DecimalMoney(required=True, description="How much was paid, a decimal string in "
                                                     "currency (default the group's; "
                                                     "\"25.00\").")
    idempotencyKey = fields.String(validate=validate.Length(min=1, max=128))


class SettleUpArgs(GroupArgs):
    revision = StrictInteger(validate=validate.Range(min=0), metadata={
        "description": "Optional: the revision get_balances answered with. If the balances "
                       "changed since (another expense or payment), nothing is recorded and "
                       "the error says so: show the user the new plan first."})
    date = DateString()
    note = fields.String(validate=validate.Length(max=MAX_SETTLEMENT_NOTE))
    idempotencyKey = fields.String(validate=validate.Length(min=1, max=128))


class AddCommentArgs(CommentBodySchema):
    groupId = Id(required=True)
    expenseId = Id(required=True)
    idempotencyKey = fields.String(validate=validate.Length(min=1, max=128))


class CreateGroupArgs(GroupCreateSchema):
    name = DisplayName(required=True, metadata={
        "description": "The group's name, e.g. \"Lisbon trip\" (1-100 characters)."})
    # A plain function, not OneOf: the JSON Schema names the rule, not 300 codes.
    currency = fields.String(required=True, validate=lambda code: CURRENCY(code), metadata={
        "description": "The group's main currency, an ISO 4217 code such as EUR, USD, GBP or "
                       "JPY (fixed once money is recorded).", "pattern": "^[A-Z]{3}$"})
    idempotencyKey = fields.String(validate=validate.Length(min=1, max=128))


class AddGuestArgs(GuestCreateSchema):
    groupId = Id(required=True)
    idempotencyKey = fields.String(validate=validate.Length(min=1, max=128))


class SetHouseholdArgs(Strict):
    groupId = Id(required=True)
    participantId = Id(required=True, metadata={
        "description": "Whose household to set (participantId from get_group); anyone may "
                       "set their own, an OWNER anyone's."})
    household = fields.String(required=True, allow_none=True, validate=validate.Length(
        min=1, max=MAX_HOUSEHOLD), metadata={
        "description": "The household's name, e.g. \"Smiths\" (case-insensitive: the same "
                       "name puts people in the same household, who then settle up as one); "
                       "null takes them out of it."})


class GroupRosterSchema(Strict):
    """get_group: the group as GET /groups/{groupId} shows it, and its roster."""

    group = fields.Nested(GroupSchema, required=True)
    participants = fields.List(fields.Nested(ParticipantSchema), required=True)


class SettleUpSchema(Strict):
    """settle_up: what it recorded (one settlement per transfer of the plan)."""

    currency = fields.String(required=True)
    recorded = fields.List(fields.Nested(SettlementSchema), required=True, metadata={
        "description": "The settlements recorded, one per transfer (empty: already settled)"})


class DeletedSchema(Strict):
    """What a delete tool answers (its REST route answers 204)."""

    deleted = fields.Boolean(required=True)
    expenseId = fields.String()
    settlementId = fields.String()


ExpenseResultSchema = ExpenseSchema
