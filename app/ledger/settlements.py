"""Settlements: one participant paying another back, with its balance delta in the same write.

A settlement may be in any currency: converted at a recorded rate (it then counts at its
groupAmount in the main currency) or kept in its own (app.ledger.foreign_currency)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from app.errors import (Conflict, Invalid, id_collision, not_found, version_conflict,
                        VersionConflict, concurrent_update)
from app.money.settlement_input import SettlementInput
from app.limits import MAX_SETTLEMENT_NOTE
from app.money.splits import MAX_AMOUNT
from app.core import scrub
from app.core import changelog, outbox, paging
from app.ledger import balances, foreign_currency, guards as money_guards, trash
from app.core.access import Access
from app.core.clock import new_id, now_iso, today
from app.ledger.expense_input import check_date
from app.core.transactions import Transaction
from models.groups import SETTLEMENT_PREFIX, Settlement

_DELETE_ATTEMPTS = 5


@dataclass(frozen=True)
class GroupSettlement:
    """A settlement with its currency (a row in the group's currency does not store it).

    Attribute reads fall through to the row, so the settlement reply schema dumps it."""

    settlement: Settlement
    group_currency: str

    @property
    def currency(self) -> str:
        return self.settlement.Currency or self.group_currency

    def __getattr__(self, name: str):
        return getattr(self.settlement, name)


_RATE_ATTRIBUTES = {"exchange_rate": "ExchangeRate", "rate_source": "RateSource",
                    "rate_date": "RateDate", "group_amount": "GroupAmount"}


def rate_attributes(rate: foreign_currency.Conversion, group_currency: str) -> dict:
    """The stored conversion of a settlement; Currency only when not the group's."""
    values = {attribute: getattr(rate, name) for name, attribute in _RATE_ATTRIBUTES.items()}
    values["Currency"] = rate.currency if rate.currency != group_currency else None
    return values


def _checked(payer_id: Any, payee_id: Any, amount: Any, date: Any, note: Any) -> None:
    if not isinstance(payer_id, str) or not isinstance(payee_id, str):
        raise Invalid("payerId and payeeId are required.",
                      details={"payerId": ["Required."], "payeeId": ["Required."]})
    if payer_id == payee_id:
        raise Invalid("The payer and the payee must be different participants.",
                      details={"payeeId": ["Must differ from payerId."]})
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_AMOUNT:
        raise Invalid(f"amount must be an integer from 1 to {MAX_AMOUNT}.",
                      details={"amount": [f"Must be an integer from 1 to {MAX_AMOUNT}."]})
    check_date(date)
    if note is not None and (not isinstance(note, str) or len(note) > MAX_SETTLEMENT_NOTE):
        raise Invalid(f"note must be at most {MAX_SETTLEMENT_NOTE} characters.",
                      details={"note": [f"At most {MAX_SETTLEMENT_NOTE} characters."]})


def _compared(payer_id, payee_id, amount, date, note, currency=None, rate=None) -> dict:
    """The fields an edit's activity diff compares."""
    return {"payerId": payer_id, "payeeId": payee_id, "amount": amount, "date": date,
            "note": note, "currency": currency, "exchangeRate": rate}


def _guarded(access: Access, payer_id: str, payee_id: str) -> Transaction:
    tx = Transaction()
    money_guards.check_money_write(tx, access, (payer_id, payee_id))
    return tx


def create_settlement(access: Access, settlement: SettlementInput) -> GroupSettlement:
    """Record a payment (version 1) with its balance delta and SETTLEMENT_ADDED atomically."""
    payer_id, payee_id, amount = settlement.payer_id, settlement.payee_id, settlement.amount
    date, note = settlement.date or today(), settlement.note
    _checked(payer_id, payee_id, amount, date, note)
    rate = foreign_currency.conversion({"currency": settlement.currency,
                                        "exchangeRate": settlement.exchange_rate,
                                        "groupAmount": settlement.group_amount}, amount,
                                       access.group.Currency, date)
    row = new_row(access, payer_id, payee_id, amount, date, note,
                  rate_attributes(rate, access.group.Currency))
    tx = _guarded(access, payer_id, payee_id)
    add_settlement(tx, access, row)
    outbox.add_event(tx, "SETTLEMENT_ADDED", scope_id=access.group_id,
                     resource_id=row.SettlementId, revision=1, actor_user_id=access.user_id,
                     group_id=access.group_id,
                     payload={"amount": amount, "payerId": payer_id, "payeeId": payee_id})
    money_guards.commit(tx, access.group)
    return GroupSettlement(row, access.group.Currency)


def new_row(access: Access, payer_id: str, payee_id: str, amount: int, date: str,
            note: Optional[str], currency_attributes: dict) -> Settlement:
    """A new settlement row (version 1); ``currency_attributes``: :func:`rate_attributes`,
    or ``{"Currency": c}`` for a kept one."""
    settlement_id, now = new_id(), now_iso()
    return Settlement(access.group_id, Settlement.sort_key(now, settlement_id),
                      SettlementId=settlement_id, PayerId=payer_id, PayeeId=payee_id,
                      Amount=amount, Date=date, Note=note, Version=1, CreatedBy=access.user_id,
                      CreatedAt=now, UpdatedAt=now,
                      ExpenseSortKey=Settlement.statement_key(date, now, settlement_id),
                      **currency_attributes)


def add_settlement(tx: Transaction, access: Access, row: Settlement, *,
                   balance_read: Optional[dict] = None, balance_revision: Optional[int] = None,
                   on_fail=None) -> None:
    """The settlement's put, its balance delta (nets and pairs) and its change row, inside
    ``tx`` (the caller adds the guards); ``balance_revision``: the balance row must still be
    at it (read as ``balance_read``; else the request's read, balances.row_of)."""
    tx.put(row, condition=Settlement.SK.does_not_exist(), on_fail=id_collision())
    main = access.group.Currency
    balances.add_to_balance(tx, access.group_id, balances.stored_settlement_nets(row, main),
                            settlements=1, pairs=balances.stored_settlement_pairs(row, main),
                            revision=balance_revision, on_fail=on_fail,
                            **({"row": balance_read} if balance_read is not None
                               else balances.against(access)))
    changelog.record(tx, access.group, row, changelog.CREATE, actor=access.participant_id)


def check_fields(payer_id: Any, payee_id: Any, amount: Any, date: Any, note: Any) -> None:
    """The settlement's own rules (ids differ, amount in range, date, note): Invalid."""
    _checked(payer_id, payee_id, amount, date, note)


def find_settlement(group_id: str, settlement_id: str) -> Settlement:
    """A settlement by id (its createdAt is unknown), or NotFound.

    A Query over ``SETTLEMENT#`` filtered on SettlementId, paging past empty pages."""
    rows = Settlement.query(group_id, Settlement.SK.startswith(SETTLEMENT_PREFIX),
                            filter_condition=Settlement.SettlementId == settlement_id,
                            consistent_read=True)
    for row in rows:
        return row
    raise not_found("Settlement")


def get_settlement(access: Access, settlement_id: str) -> GroupSettlement:
    return GroupSettlement(find_settlement(access.group_id, settlement_id),
                           access.group.Currency)


def list_settlements(access: Access, *, limit: Optional[int], cursor: Optional[str],
                     scope: str) -> dict:
    """Newest first, from the base table (the SK starts with createdAt)."""
    rows = Settlement.newest_first(access.group_id, limit=paging.clamp_limit(limit),
                                   last_evaluated_key=paging.decode(cursor, scope))
    return paging.page_of(rows, scope,
                          lambda row: GroupSettlement(row, access.group.Currency)).as_dict()


def update_settlement(access: Access, settlement_id: str, version: int,
                      changes: SettlementInput) -> GroupSettlement:
    """Edit the version read with the fields ``changes`` sent; a stale version is
    VERSION_CONFLICT."""
    current = find_settlement(access.group_id, settlement_id)
    if int(current.Version) != version:
        raise version_conflict("settlement", int(current.Version))
    payer = changes.sent_or("payer_id", current.PayerId)
    payee = changes.sent_or("payee_id", current.PayeeId)
    amount = changes.sent_or("amount", int(current.Amount))
    date = changes.date or current.Date or today()
    note = changes.sent_or("note", current.Note)
    _checked(payer, payee, amount, date, note)
    rate = foreign_currency.conversion(_merged_rate(current, changes, amount), amount,
                                 access.group.Currency, date)
    attributes = {"PayerId": payer, "PayeeId": payee, "Amount": amount, "Date": date,
                  "Version": version + 1, "UpdatedAt": now_iso(), "Note": note,
                  "ExpenseSortKey": Settlement.statement_key(date, current.CreatedAt,
                                                             settlement_id),
                  **rate_attributes(rate, access.group.Currency)}
    actions = [getattr(Settlement, name).set(value) if value is not None
               else getattr(Settlement, name).remove() for name, value in attributes.items()]
    tx = _guarded(access, payer, payee)
    tx.update(current, actions, condition=Settlement.Version == version,
              on_fail=money_guards.stale_version("Settlement"))
    old = balances.stored_settlement_nets(current, access.group.Currency)
    new = balances.stored_settlement_nets(Settlement(**attributes), access.group.Currency)
    edited = Settlement(**attributes)
    balances.add_to_balance(tx, access.group_id, balances.deltas(old, new), pairs=balances.deltas(
        balances.stored_settlement_pairs(current, access.group.Currency),
        balances.stored_settlement_pairs(edited, access.group.Currency)),
        **balances.against(access))
    changelog.record(tx, access.group, current, actor=access.participant_id,
                     diff=changelog.diff_of(
                         _compared(current.PayerId, current.PayeeId, current.Amount, current.Date,
                                   current.Note, current.Currency, current.ExchangeRate),
                         _compared(payer, payee, amount, date, note, attributes.get("Currency"),
                                   attributes.get("ExchangeRate"))),
                     subject={"amount": amount, "payerId": payer, "payeeId": payee})
    money_guards.commit(tx, access.group)
    return get_settlement(access, settlement_id)


def _merged_rate(current: Settlement, changes: SettlementInput, amount: int) -> dict:
    """An edit keeps the recorded rate unless it sends a new one (or another currency); the
    recorded groupAmount stands only while the amount does."""
    body = {"currency": current.Currency, "exchangeRate": current.ExchangeRate,
            "rateSource": current.RateSource, "rateDate": current.RateDate,
            "groupAmount": int(current.GroupAmount) if current.GroupAmount is not None else None}
    if "currency" in changes.sent and changes.currency != body["currency"]:
        body = {"currency": changes.currency}
    if changes.sent & {"exchange_rate", "group_amount"}:
        body = {"currency": body["currency"]}
        if "exchange_rate" in changes.sent:
            body["exchangeRate"] = changes.exchange_rate
        if "group_amount" in changes.sent:
            body["groupAmount"] = changes.group_amount
    elif amount != int(current.Amount):
        body.pop("groupAmount", None)
    if body.get("exchangeRate") is None:
        body.pop("rateSource", None)
    return body


def delete_settlement(access: Access, settlement_id: str) -> None:
    """Move a settlement to the trash (app.ledger.trash); its balance effect is reversed in
    the same transaction."""
    for _ in range(_DELETE_ATTEMPTS):
        current = find_settlement(access.group_id, settlement_id)
        tx = Transaction()
        money_guards.check_writer(tx, access)
        # Conditioned on the version read: the reversed delta is computed from it.
        tx.delete(current, condition=Settlement.Version == int(current.Version),
                  on_fail=version_conflict("settlement"))
        trash.put_in_trash(tx, access, current)
        reverse = {key: -value for key, value in
                   balances.stored_settlement_nets(current, access.group.Currency).items()}
        balances.add_to_balance(tx, access.group_id, reverse, settlements=-1,
                                pairs=balances.deltas(balances.stored_settlement_pairs(
                                    current, access.group.Currency), {}),
                                **balances.against(access))
        changelog.record(tx, access.group, current, changelog.DELETE, actor=access.participant_id)
        try:
            tx.commit()
        except Conflict as error:
            if not isinstance(error, VersionConflict):
                raise
            continue
        # After the commit: /activity stops quoting its note (app.core.scrub).
        scrub.scrub_resource(access.group_id, "SETTLEMENT", settlement_id)
        return
    raise concurrent_update("The settlement keeps changing; try again.")
