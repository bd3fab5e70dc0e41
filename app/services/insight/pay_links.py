"""``payTo`` on settle-up transfers: how to pay each payee, built from their payment methods.

The payees' methods come from one BatchGetItem (per 100 payees) for the whole reply, and
none at all when no transfer is owed to a user (guests have no methods)."""
from __future__ import annotations

import dataclasses
from typing import Iterable, List, Mapping

from app.services.insight.payment_methods import methods_of, pay_to
from app.services.ledger.balances import Balances, Transfer


def note_for(group_name: str) -> str:
    return f"TailSpend: {group_name}"


def _attach(transfers: Iterable[Transfer], currency: str, user_ids: Mapping[str, str],
            methods: Mapping, note: str) -> List[Transfer]:
    out = []
    for transfer in transfers:
        owner = user_ids.get(transfer.to_id)
        links = pay_to(methods.get(owner, ()), amount=transfer.amount, currency=currency,
                       note=note) if owner else []
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
