"""``?displayCurrency=``: the main nets shown in another currency, nothing stored.

Converted at today's reference rate (the latest ECB publication, crossed through EUR) and
apportioned like a conversion (app.money.fx.convert_nets), so the shown nets still sum to 0
and get their own minimal settle-up plan. In the pairwise view each pairwise transfer is
converted on its own and the shown nets are what those converted transfers settle, so the
section still nets exactly (each net within a unit per pair of its straight conversion)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import List

from app.money import fx
from app.currencies.rates import reference_rate
from app.ledger.balances import PAIRWISE, Balances, BalanceRow, Transfer, plan


@dataclass(frozen=True)
class Display:
    currency: str
    rate: str
    rate_date: str
    rows: List[BalanceRow]
    transfers: List[Transfer]


def with_display(result: Balances, currency: str, day: str) -> Balances:
    """``result`` with its ``display`` section in ``currency`` (RATE_UNAVAILABLE if none)."""
    if currency == result.currency:
        rate, used = fx.parse_rate("1"), day
    else:
        rate, used = reference_rate(result.currency, currency, day)
    if result.view == PAIRWISE:
        transfers = [Transfer(t.from_id, t.to_id, amount) for t in result.transfers
                     if (amount := fx.convert(t.amount, rate, result.currency, currency))]
        shown: dict = {}
        for t in transfers:
            shown[t.from_id] = shown.get(t.from_id, 0) - t.amount
            shown[t.to_id] = shown.get(t.to_id, 0) + t.amount
    else:
        shown = fx.convert_nets({r.participant_id: r.net for r in result.rows}, rate,
                                result.currency, currency)
        transfers = plan(shown, result.members)
    rows = [BalanceRow(r.participant_id, r.display_name, shown.get(r.participant_id, 0))
            for r in result.rows]
    return dataclasses.replace(result, display=Display(currency, fx.rate_text(rate), used, rows,
                                                       transfers))
