"""GET/PUT /users/me/payment-methods.

A user's methods are read back only by themselves (this route) and, as ``payTo`` links, by
users who share a group with them (app.ledger.pay_links: settle-up is the ledger's, and a
group's balances need a participant's access)."""
from __future__ import annotations

from typing import Mapping, Sequence

from app.errors import Invalid
from app.money import pay_methods
from app.money.pay_methods import Method
from app.core.clock import now_iso
from app.core.transactions import Transaction
from models.payment_methods import MethodMap, PaymentMethods


def get_methods(user_id: str) -> dict:
    try:
        row = PaymentMethods.get(*PaymentMethods.key(user_id), consistent_read=True)
    except PaymentMethods.DoesNotExist:
        return {"methods": []}
    return {"methods": [Method(m.Type, handle=m.Handle, iban=m.Iban, name=m.Name).as_dict()
                        for m in row.Methods or []]}


def put_methods(user_id: str, methods: Sequence[Mapping]) -> dict:
    """Replace the caller's methods (<= 5); refused shapes are a 400 naming each field."""
    normalised, errors = pay_methods.checked(methods)
    if errors:
        raise Invalid("Some payment methods are not valid.", details=errors)
    now = now_iso()
    row = PaymentMethods(*PaymentMethods.key(user_id), CreatedAt=now, UpdatedAt=now,
                         Methods=[MethodMap(Type=m.type, Handle=m.handle, Iban=m.iban,
                                            Name=m.name) for m in normalised])
    # Written only while the account is live: a PUT racing account deletion cannot leave
    # a row behind the partition sweep.
    Transaction().require_live_account(user_id).put(row).commit()
    return {"methods": [m.as_dict() for m in normalised]}
