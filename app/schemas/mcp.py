"""MCP tool arguments and results: the REST schemas, with money as decimal strings on input.

Each tool's arguments are the REST route's body or query plus the ids its path carries.
Money goes in as a decimal string in the group currency (``"12.30"``) and is converted
exactly to minor units by the tool before the REST schema validates the converted body, so
every limit and rule is the REST route's own. Results are the REST response schemas."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from app.money.expense_forms import NOT_BOTH_FORMS, ONE_FORM
from app.money.splits import SPLIT_MODES
from app.schemas.common import Id, PageArgsSchema, Strict
from app.schemas.expenses import CommentBodySchema, ExpenseCreateSchema, ExpenseListArgsSchema
from app.schemas.groups import GroupSchema, ParticipantSchema
from app.schemas.settlements import SettlementCreateSchema

DECIMAL_PATTERN = r"^-?[0-9]{1,30}(\.[0-9]{1,30})?$"


def DecimalMoney(*, description: str = "", **kwargs) -> fields.String:  # noqa: N802
    """An amount in the group currency as a decimal string, at most its number of decimals."""
    return fields.String(validate=validate.Regexp(DECIMAL_PATTERN, error=(
        "Must be a decimal string such as \"12.30\".")), metadata={
        "example": "12.30", "description": description or (
            "Decimal string in the group currency, e.g. \"12.30\" (no more decimals than the "
            "currency has)")}, **kwargs)


def IdempotencyKey() -> fields.String:  # noqa: N802
    return fields.String(validate=validate.Length(min=1, max=128), metadata={
        "description": "Reuse it when retrying: the same key with the same arguments within 24 h "
                       "returns the first result and writes nothing."})


class SplitValue(fields.Field):
    """EXACT: a decimal string; PERCENT: basis points; SHARES: a weight; EQUAL: ignored."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValidationError("Must be a decimal string (EXACT) or an integer.")
        return value


class GroupArgs(Strict):
    groupId = Id(required=True)


class ListGroupsArgs(PageArgsSchema):
    """The caller's groups, a page at a time (``limit``, ``cursor``)."""


class ListExpensesArgs(ExpenseListArgsSchema):
    groupId = Id(required=True)


class McpPaymentSchema(Strict):
    participantId = Id(required=True)
    amount = DecimalMoney(required=True)


class McpSplitSchema(Strict):
    participantId = Id(required=True)
    value = SplitValue(metadata={
        "type": ["string", "integer"],
        "description": "EXACT: the amount owed as a decimal string (\"4.10\"); PERCENT: basis "
                       "points (2500 = 25%); SHARES: a positive weight; EQUAL: omit"})


class McpItemSchema(Strict):
    name = fields.String()
    amount = DecimalMoney(required=True)
    splitMode = fields.String(required=True, validate=validate.OneOf(SPLIT_MODES))
    splits = fields.List(fields.Nested(McpSplitSchema), required=True)


class AddExpenseArgs(ExpenseCreateSchema):
    """The REST expense body with decimal-string money, plus the group and an idempotency key."""

    groupId = Id(required=True)
    currency = fields.String(metadata={
        "description": "Optional check: the group currency the amounts are written in; a "
                       "different currency is refused."})
    payments = fields.List(fields.Nested(McpPaymentSchema), required=True)
    items = fields.List(fields.Nested(McpItemSchema))
    amount = DecimalMoney(description="The shorthand's one item amount, a decimal string "
                                      "(\"12.30\")")
    splits = fields.List(fields.Nested(McpSplitSchema))
    idempotencyKey = IdempotencyKey()
    JSON_EXTRA = {"anyOf": ONE_FORM, "not": NOT_BOTH_FORMS}


class RecordSettlementArgs(SettlementCreateSchema):
    groupId = Id(required=True)
    amount = DecimalMoney(required=True)
    idempotencyKey = IdempotencyKey()


class AddCommentArgs(CommentBodySchema):
    groupId = Id(required=True)
    expenseId = Id(required=True)
    idempotencyKey = IdempotencyKey()


class GroupRosterSchema(Strict):
    """get_group: the group as GET /groups/{groupId} shows it, and its roster."""

    group = fields.Nested(GroupSchema, required=True)
    participants = fields.List(fields.Nested(ParticipantSchema), required=True)

