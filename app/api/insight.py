"""Insight and getting paid: /users/me/payment-methods."""
from __future__ import annotations

from app.api.context import principal
from app.api.pat import pat_scope
from app.api.spec import Blueprint
from app.schemas.insight import METHODS_EXAMPLE, PaymentMethodsSchema
from app.services.insight import payment_methods

blp = Blueprint("insight", __name__, description="Insight and getting paid")


@blp.route("/users/me/payment-methods")
@blp.response(200, PaymentMethodsSchema, example=METHODS_EXAMPLE)
@pat_scope("profile:write")
def get_payment_methods():
    """The caller's payment methods (others see them only as ``payTo`` links on the
    settle-up transfers of groups they share with the caller)."""
    return payment_methods.get_methods(principal().user_id)


@blp.route("/users/me/payment-methods", methods=["PUT"])
@blp.arguments(PaymentMethodsSchema, example=METHODS_EXAMPLE)
@blp.response(200, PaymentMethodsSchema, example=METHODS_EXAMPLE)
@pat_scope("profile:write")
def put_payment_methods(body):
    """Replace the caller's payment methods (at most 5). Handles follow each service's own
    rules; a SEPA IBAN is checked by its checksum and needs the holder's name; a refused
    shape is a 400 naming the field (``methods.<i>.<field>``)."""
    return payment_methods.put_methods(principal().user_id, body["methods"])
