"""GET/PUT /users/me/payment-methods, and the pay links settle-up transfers carry.

A user's methods are read back only by themselves (this route) and, as ``payTo`` links, by
users who share a group with them (a group's balances, which need a participant's access)."""
from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Sequence

from app.errors import Invalid
from app.money import pay_methods
from app.money.pay_methods import Method
from app.core import request_reads
from app.core.clock import now_iso
from app.core.transactions import Transaction
from models.payment_methods import MethodMap, PaymentMethods


def method_of_raw(entry: Mapping) -> Method:
    return Method(entry["Type"], handle=entry.get("Handle"), iban=entry.get("Iban"),
                  name=entry.get("Name"))


def _from_raw(entries: Iterable[Mapping]) -> List[Method]:
    return [method_of_raw(e) for e in entries]


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


def methods_of(user_ids: Iterable[str]) -> Dict[str, List[Method]]:
    """Every listed user's methods: one BatchGetItem per 100 users (none for no users, and
    none when this request's access check read them already: pay_links.prefetch)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    held = request_reads.take_rows(PaymentMethods.Meta.table_name,
                                   [PaymentMethods.key(uid) for uid in wanted])
    if held is not None:
        return {uid: _from_raw(PaymentMethods.entries_of(raw)) for (uid, _), raw in held.items()}
    return {uid: _from_raw(entries) for uid, entries in PaymentMethods.of_users(wanted).items()}


def pay_to(methods: Sequence[Method], *, amount: int, currency: str, note: str) -> List[dict]:
    return pay_methods.links(methods, amount=amount, currency=currency, note=note)
