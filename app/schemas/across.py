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


_ANA, _BO = "6f1c2a7e-2b7d-4c39-9d0e-3f0a1b2c3d4e", "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
MY_EXPENSES_EXAMPLE = {"items": [{
    "expenseId": "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a99",
    "groupId": "5d0c4f3a-2f7e-4f7e-9a55-0d1e2f3a4b5c", "groupName": "Lisbon trip",
    "description": "Taxi to the airport", "category": "TRANSPORT", "amount": 2400,
    "currency": "EUR", "date": "2026-03-01", "version": 1,
    "payments": [{"participantId": _ANA, "amount": 2400}],
    "items": [{"name": "Taxi to the airport", "amount": 2400, "splitMode": "EQUAL",
               "splits": [{"participantId": _ANA, "value": 0, "amount": 1200},
                          {"participantId": _BO, "value": 0, "amount": 1200}]}],
    "createdBy": _ANA, "createdAt": "2026-03-01T18:04:05Z", "updatedAt": None}],
    "nextCursor": None}
