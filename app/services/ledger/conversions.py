"""Conversions: every kept net of one currency moved into the main currency at one rate.

``POST /groups/{groupId}/conversions`` reads the balance row, converts that currency's nets
(app.money.fx.convert_nets: apportioned so they still sum to 0) and writes a CONVERSION row
with the balance delta in one TransactWrite conditioned on the revision read, so the nets
it cleared are exactly the nets there were."""
from __future__ import annotations

from typing import Any, Mapping, Optional

from app.errors import Invalid, concurrent_update, id_collision, not_found
from app.money import fx
from app.services.core import paging
from app.services.core.access import Access
from app.services.core.clock import new_id, now_iso, today
from app.services.core import changelog
from app.services.core.transactions import Transaction
from app.services.ledger import balances, conversion, guards as money_guards
from models.groups import CONVERSION_PREFIX, Balance, Conversion


def _rate(access: Access, currency: str, sent: Any, day: str) -> tuple:
    if sent == fx.AUTO:
        rate, used = conversion._auto_rate(currency, access.group.Currency, day)
        return rate, conversion.ECB, used
    return fx.parse_rate(sent), conversion.CLIENT, None


def convert_kept(access: Access, body: Mapping[str, Any]) -> Conversion:
    """Move every kept net of ``body["currency"]`` into the main currency (201)."""
    currency = conversion.currency_of(body, access.group.Currency)
    if currency == access.group.Currency:
        raise Invalid("Convert a currency other than the group's.",
                      details={"currency": ["Must differ from the group currency."]})
    rate, source, rate_date = _rate(access, currency, body.get("exchangeRate"), today())
    raw = Balance.fetch_raw(access.group_id)
    all_nets, revision = balances.served_nets(raw)
    kept = balances.split_nets(all_nets)[1].get(currency, {})
    if not kept:
        raise Invalid(f"Nothing is kept in {currency}.",
                      details={"currency": [f"No kept nets in {currency}."]})
    converted = fx.convert_nets(kept, rate, currency, access.group.Currency)
    conversion_id, now = new_id(), now_iso()
    row = Conversion(access.group_id, Conversion.sort_key(now, conversion_id),
                     ConversionId=conversion_id, Currency=currency,
                     ExchangeRate=fx.rate_text(rate), RateSource=source, RateDate=rate_date,
                     KeptNets=dict(kept), GroupNets=converted, CreatedBy=access.user_id,
                     CreatedAt=now, UpdatedAt=now)
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    money_guards.check_writer(tx, access)
    tx.put(row, condition=Conversion.SK.does_not_exist(), on_fail=id_collision())
    changelog.record(tx, access.group, row, changelog.CREATE, actor=access.participant_id)
    balances.add_to_balance(
        tx, access.group_id, balances.conversion_nets(row),
        condition=Balance.BalanceRevision == revision,
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
