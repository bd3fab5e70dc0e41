"""Across my groups: GET /users/me/people and GET /users/me/expenses."""
from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.balances import PayToSchema
from app.schemas.common import PageArgsSchema, Strict, page_schema
from app.schemas.expenses import DateString, ExpenseSchema

PAY_TO = fields.List(fields.Nested(PayToSchema), dump_default=list, metadata={
    "description": "When net < 0 (I owe them): how to pay them, from their payment methods"})


class PersonNetSchema(Strict):
    currency = fields.String(required=True)
    net = fields.Integer(required=True, metadata={
        "description": "Minor units of currency; > 0: they owe me, < 0: I owe them"})
    payTo = PAY_TO


class PersonGroupSchema(PersonNetSchema):
    groupId = fields.String(required=True)
    name = fields.String(required=True)


class PersonBalanceSchema(Strict):
    userId = fields.String(required=True)
    displayName = fields.String(required=True)
    handle = fields.String()
    nets = fields.List(fields.Nested(PersonNetSchema), required=True, metadata={
        "description": "Per currency: the transfers between us in each group's settle-up "
                       "plan, summed"})
    groups = fields.List(fields.Nested(PersonGroupSchema), required=True, metadata={
        "description": "Per shared group (and kept currency owed in it): our plan's transfers"})


class PeopleBalancesSchema(Strict):
    items = fields.List(fields.Nested(PersonBalanceSchema), required=True)


PEOPLE_EXAMPLE = {"items": [{
    "userId": "0b6f5c1e-8a51-4a2c-9d6e-6c3f1f0e7a11", "displayName": "Bo", "handle": "bo",
    "nets": [{"currency": "EUR", "net": -1250,
              "payTo": [{"type": "PAYPAL", "url": "https://paypal.me/bojones/12.50EUR"}]}],
    "groups": [{"groupId": "5d0c4f3a-2f7e-4f7e-9a55-0d1e2f3a4b5c", "name": "Lisbon trip",
                "currency": "EUR", "net": -1250,
                "payTo": [{"type": "PAYPAL", "url": "https://paypal.me/bojones/12.50EUR"}]}]}]}


class MyExpensesArgsSchema(PageArgsSchema):
    from_ = DateString(data_key="from")
    to = DateString()
    q = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "Words (case- and accent-insensitive); every one must occur in the "
                       "description or an item name", "example": "taxi"})
    withUserId = fields.UUID(metadata={"description": "Only expenses that user pays or owes "
                                                      "in too (groups shared with them)"})


class MyExpenseSchema(ExpenseSchema):
    """An expense of one of my groups (``groupId`` as on every expense), with its name."""

    groupName = fields.String(required=True, attribute="group_name")


MyExpensePageSchema = page_schema(MyExpenseSchema, "MyExpensePage")
