"""``payTo`` on settle-up transfers: how to pay each payee, built from their payment methods.

The payees' methods come from one BatchGetItem (per 100 payees) for the whole reply, and
none at all when no transfer is owed to a user (guests have no methods). GET balances reads
the roster first and names its accounts' methods rows in the access check's BatchGetItem
(:func:`prefetch`), so that call brings them and the route is two calls.

The ledger's, as settle-up is: its balances, and the areas above it (reminders,
/users/me/people), attach the same links; the methods rows are written by insight's
/users/me/payment-methods."""
from __future__ import annotations

import dataclasses
from typing import Dict, Iterable, List, Mapping

from app.core import request_reads
from app.ledger import balances
from app.ledger.balances import BALANCES_PREFETCH, Balances, Transfer
from app.money import pay_methods
from app.money.pay_methods import Method
from models.base import BATCH_GET_LIMIT
from models.payment_methods import PaymentMethods

# Beside the profile, the head, the guard row and BALANCES_PREFETCH in one BatchGetItem.
PREFETCH_LIMIT = BATCH_GET_LIMIT - 3 - len(BALANCES_PREFETCH)


def prefetch(group_id: str) -> tuple:
    """(PaymentMethods, key) of every account on the roster (read now, one Query, kept for
    the balances): the request's access check reads them in its BatchGetItem. Only after
    that check passes is any of it used, and only as payees' payTo links. Nothing when the
    roster has more accounts than fit beside the check (then read as payees, apart)."""
    users = sorted({p.UserId for p in balances.read_roster(group_id)
                    if p.Type == "USER" and p.UserId})
    if len(users) > PREFETCH_LIMIT:
        return ()
    return tuple((PaymentMethods, PaymentMethods.key(uid)) for uid in users)


def method_of_raw(entry: Mapping) -> Method:
    return Method(entry["Type"], handle=entry.get("Handle"), iban=entry.get("Iban"),
                  name=entry.get("Name"))


def _from_raw(entries: Iterable[Mapping]) -> List[Method]:
    return [method_of_raw(e) for e in entries]


def methods_of(user_ids: Iterable[str]) -> Dict[str, List[Method]]:
    """Every listed user's methods: one BatchGetItem per 100 users (none for no users, and
    none when this request's access check read them already: :func:`prefetch`)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    held = request_reads.take_rows(PaymentMethods.Meta.table_name,
                                   [PaymentMethods.key(uid) for uid in wanted])
    if held is not None:
        return {uid: _from_raw(PaymentMethods.entries_of(raw)) for (uid, _), raw in held.items()}
    return {uid: _from_raw(entries) for uid, entries in PaymentMethods.of_users(wanted).items()}


def note_for(group_name: str) -> str:
    return f"TailSpend: {group_name}"


def _attach(transfers: Iterable[Transfer], currency: str, user_ids: Mapping[str, str],
            methods: Mapping, note: str) -> List[Transfer]:
    out = []
    for transfer in transfers:
        owner = user_ids.get(transfer.to_id)
        links = pay_methods.links(methods.get(owner, ()), amount=transfer.amount,
                                  currency=currency, note=note) if owner else []
        out.append(dataclasses.replace(transfer, pay_to=tuple(links)))
    return out


def with_pay_to(result: Balances, *, group_name: str) -> Balances:
    """The balances with every transfer's (and every currency section's) ``payTo``."""
    payees = {t.to_id for t in result.transfers}
    payees |= {t.to_id for section in result.other_currencies for t in section.transfers}
    users = {result.user_ids[pid] for pid in payees if pid in result.user_ids}
    if not users:
        return result
    methods = methods_of(users)
    note = note_for(group_name)
    sections = [dataclasses.replace(section, transfers=_attach(
        section.transfers, section.currency, result.user_ids, methods, note))
        for section in result.other_currencies]
    return dataclasses.replace(
        result, transfers=_attach(result.transfers, result.currency, result.user_ids,
                                  methods, note), other_currencies=sections)
