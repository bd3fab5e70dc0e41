"""Insight and getting paid: payment methods (and, in app.schemas.balances, pay links)."""
from __future__ import annotations

from marshmallow import fields, validate

from app.money.pay_methods import MAX_METHODS, TYPES
from app.schemas.common import Strict

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
        "description": "SEPA (required): the account holder; UPI (optional): the payee name"})


class PaymentMethodsSchema(Strict):
    methods = fields.List(fields.Nested(PaymentMethodSchema), required=True,
                          validate=validate.Length(max=MAX_METHODS))

