"""Conversions: every kept net of one currency moved into the main currency at one rate.

``POST /groups/{groupId}/conversions`` reads the balance row, converts that currency's nets
(app.money.fx.convert_nets: apportioned so they still sum to 0) and writes a CONVERSION row
with the balance delta in one TransactWrite conditioned on the revision read, so the nets
it cleared are exactly the nets there were.

The rate is bounded as an expense's is: no converted net may round to 0 from a non-zero
net nor exceed the amount cap, and a rate more than ``OUTLIER_FACTOR`` times away from the
day's ECB reference (when one is known) needs ``confirmOutlier``.

``DELETE`` undoes one conversion: it subtracts that row's own effect (its ``GroupNets`` out
of the main nets, its ``KeptNets`` back into the kept section), whatever was written since,
so the balance stays the fold of the rows that remain (docs/currencies.md)."""
from __future__ import annotations

from typing import Any, Mapping, Optional

from decimal import Decimal

from app.errors import (Invalid, Unprocessable, concurrent_update, id_collision, not_found)
from app.ledger.errors import rate_outlier
from app.money import fx
from app.money.splits import MAX_AMOUNT
from app.core import paging
from app.core.access import Access
from app.core.clock import new_id, now_iso, today
from app.core import changelog
from app.core.transactions import Transaction
from app.ledger import balances, foreign_currency, guards as money_guards
from models.groups import CONVERSION_PREFIX, Balance, Conversion


def _rate(access: Access, currency: str, sent: Any, day: str) -> tuple:
    if sent == fx.AUTO:
        rate, used = foreign_currency._auto_rate(currency, access.group.Currency, day)
        return rate, foreign_currency.ECB, used
    return fx.parse_rate(sent), foreign_currency.CLIENT, None


OUTLIER_FACTOR = 100


def _check_outlier(access: Access, currency: str, rate: Decimal, day: str,
                   confirmed: bool) -> None:
    """A client rate more than OUTLIER_FACTOR times off the day's reference is a typo until
    the body says ``confirmOutlier``; with no reference known there is nothing to judge."""
    if confirmed:
        return
    try:
        reference, used = foreign_currency._auto_rate(currency, access.group.Currency, day)
    except Unprocessable:
        return
    if reference * OUTLIER_FACTOR < rate or rate * OUTLIER_FACTOR < reference:
        raise rate_outlier(fx.rate_text(rate), fx.rate_text(reference), used, OUTLIER_FACTOR)


def _check_bounds(kept: Mapping[str, int], converted: Mapping[str, int], rate: Decimal,
                  currency: str) -> None:
    """The expense bound: nothing non-zero converts to 0, nothing passes the amount cap."""
    for pid, value in kept.items():
        new = converted.get(pid, 0)
        if value and not new:
            raise Invalid(f"At {fx.rate_text(rate)} a net of {value} {currency} minor units "
                          "converts to 0.", details={"exchangeRate": [
                              "Converts a non-zero net to nothing."]})
        if abs(new) > MAX_AMOUNT:
            raise Invalid(f"At {fx.rate_text(rate)} a net converts past {MAX_AMOUNT} minor "
                          "units.", details={"exchangeRate": [
                              f"Converts a net past {MAX_AMOUNT}."]})


def convert_kept(access: Access, body: Mapping[str, Any]) -> Conversion:
    """Move every kept net of ``body["currency"]`` into the main currency (201)."""
    currency = foreign_currency.currency_of(body.get("currency"), access.group.Currency)
    if currency == access.group.Currency:
        raise Invalid("Convert a currency other than the group's.",
                      details={"currency": ["Must differ from the group currency."]})
    day = today()
    rate, source, rate_date = _rate(access, currency, body.get("exchangeRate"), day)
    if source == foreign_currency.CLIENT:
        _check_outlier(access, currency, rate, day, bool(body.get("confirmOutlier")))
    raw = Balance.fetch_raw(access.group_id)
    all_nets, revision = balances.served_nets(raw)
    kept = balances.split_nets(all_nets)[1].get(currency, {})
    if not kept:
        raise Invalid(f"Nothing is kept in {currency}.",
                      details={"currency": [f"No kept nets in {currency}."]})
    converted = fx.convert_nets(kept, rate, currency, access.group.Currency)
    _check_bounds(kept, converted, rate, currency)
    conversion_id, now = new_id(), now_iso()
    row = Conversion(access.group_id, Conversion.sort_key(now, conversion_id),
                     ConversionId=conversion_id, Currency=currency,
                     ExchangeRate=fx.rate_text(rate), RateSource=source, RateDate=rate_date,
                     KeptNets=dict(kept), GroupNets=converted,
                     KeptPairs=balances.kept_pairs_record(balances.served_pairs(raw), currency),
                     CreatedBy=access.user_id,
                     CreatedAt=now, UpdatedAt=now,
                     # A conversion's date is the day it was made (its statement place).
                     ExpenseSortKey=Conversion.statement_key(now[:10], now, conversion_id))
    tx = Transaction()
    money_guards.check_money_write(tx, access, kept)
    tx.put(row, condition=Conversion.SK.does_not_exist(), on_fail=id_collision())
    changelog.record(tx, access.group, row, changelog.CREATE, actor=access.participant_id)
    balances.add_to_balance(
        tx, access.group_id, balances.conversion_nets(row), pairs=balances.conversion_pairs(row),
        row=raw, revision=revision,
        on_fail=concurrent_update("The balances changed meanwhile; try again."))
    money_guards.commit(tx, access.group)
    return row


def list_conversions(access: Access, *, limit: Optional[int], cursor: Optional[str],
                     scope: str) -> dict:
    """Newest first, from the base table (the SK starts with createdAt)."""
    rows = Conversion.newest_first(access.group_id, limit=paging.clamp_limit(limit),
                                   last_evaluated_key=paging.decode(cursor, scope))
    return paging.page_of(rows, scope).as_dict()


def get_conversion(access: Access, conversion_id: str) -> Conversion:
    rows = Conversion.query(access.group_id, Conversion.SK.startswith(CONVERSION_PREFIX),
                            filter_condition=Conversion.ConversionId == conversion_id,
                            consistent_read=True)
    for row in rows:
        return row
    raise not_found("Conversion")


def delete_conversion(access: Access, conversion_id: str) -> None:
    """Undo one conversion exactly (204): its own nets reversed, in one TransactWrite.

    The delete is conditioned on the row as read (a transfer renaming it meanwhile moves
    UpdatedAt), so the reversed nets are exactly the ones the row holds."""
    row = get_conversion(access, conversion_id)
    reverse = {key: -value for key, value in balances.conversion_nets(row).items()}
    key = Conversion(access.group_id, row.SK)
    tx = Transaction()
    money_guards.check_money_write(tx, access, balances.conversion_participants(row))
    tx.delete(key, condition=Conversion.SK.exists() & (Conversion.UpdatedAt == row.UpdatedAt),
              on_fail=lambda old: not_found("Conversion") if not old else concurrent_update(
                  "The conversion changed meanwhile; try again."))
    changelog.record(tx, access.group, row, changelog.DELETE, actor=access.participant_id)
    balances.add_to_balance(tx, access.group_id, reverse, pairs=balances.deltas(
        balances.conversion_pairs(row), {}), **balances.against(access))
    money_guards.commit(tx, access.group)
