"""Settlements: one participant paying another back, with its balance delta in the same write."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional

from app.errors import Conflict, Invalid, id_collision, not_found, version_conflict
from app.money.splits import MAX_AMOUNT
from app.services.core import changelog, outbox, paging
from app.services.ledger import balances, guards as money_guards
from app.services.core.access import Access
from app.services.core.clock import new_id, now_iso, today
from app.services.ledger.expense_input import check_date
from app.services.core.transactions import Transaction
from models.groups import SETTLEMENT_PREFIX, Settlement

MAX_NOTE = 500
_DELETE_ATTEMPTS = 5


@dataclass(frozen=True)
class GroupSettlement:
    """A settlement with its group's currency (the row does not store it).

    Attribute reads fall through to the row, so the settlement reply schema dumps it."""

    settlement: Settlement
    currency: str

    def __getattr__(self, name: str):
        return getattr(self.settlement, name)


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
    if note is not None and (not isinstance(note, str) or len(note) > MAX_NOTE):
        raise Invalid(f"note must be at most {MAX_NOTE} characters.",
                      details={"note": [f"At most {MAX_NOTE} characters."]})


def _compared(payer_id, payee_id, amount, date, note) -> dict:
    """The fields an edit's activity diff compares."""
    return {"payerId": payer_id, "payeeId": payee_id, "amount": amount, "date": date,
            "note": note}


def _guarded(access: Access, payer_id: str, payee_id: str) -> Transaction:
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    money_guards.check_writer(tx, access)
    money_guards.check_participants(tx, access.group_id, (payer_id, payee_id))
    return tx


def create_settlement(access: Access, *, payer_id: str, payee_id: str, amount: int,
                      date: Optional[str] = None, note: Optional[str] = None) -> dict:
    """Record a payment (version 1) with its balance delta and SETTLEMENT_ADDED atomically."""
    date = date or today()
    _checked(payer_id, payee_id, amount, date, note)
    settlement_id, now = new_id(), now_iso()
    row = Settlement(access.group_id, Settlement.sort_key(now, settlement_id),
                     SettlementId=settlement_id, PayerId=payer_id, PayeeId=payee_id,
                     Amount=amount, Date=date, Note=note, Version=1, CreatedBy=access.user_id,
                     CreatedAt=now, UpdatedAt=now)
    tx = _guarded(access, payer_id, payee_id)
    tx.put(row, condition=Settlement.SK.does_not_exist(),
           on_fail=id_collision())
    balances.add_to_balance(tx, access.group_id,
                            balances.settlement_nets(payer_id, payee_id, amount), settlements=1)
    outbox.add_event(tx, "SETTLEMENT_ADDED", scope_id=access.group_id,
                     resource_id=settlement_id, revision=1, actor_user_id=access.user_id,
                     group_id=access.group_id,
                     payload={"amount": amount, "payerId": payer_id, "payeeId": payee_id})
    changelog.record(tx, access.group, row, changelog.CREATE, actor=access.participant_id)
    money_guards.commit(tx, access.group)
    return GroupSettlement(row, access.group.Currency)


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
                      patch: Mapping[str, Any]) -> GroupSettlement:
    """Edit the version read; a stale version is VERSION_CONFLICT."""
    current = find_settlement(access.group_id, settlement_id)
    if int(current.Version) != version:
        raise version_conflict("settlement", int(current.Version))
    payer = patch.get("payerId", current.PayerId)
    payee = patch.get("payeeId", current.PayeeId)
    amount = patch.get("amount", int(current.Amount))
    date = patch.get("date") or current.Date or today()
    note = patch["note"] if "note" in patch else current.Note
    _checked(payer, payee, amount, date, note)
    actions = [Settlement.PayerId.set(payer), Settlement.PayeeId.set(payee),
               Settlement.Amount.set(amount), Settlement.Date.set(date),
               Settlement.Version.set(version + 1), Settlement.UpdatedAt.set(now_iso())]
    actions.append(Settlement.Note.set(note) if note is not None else Settlement.Note.remove())
    tx = _guarded(access, payer, payee)
    tx.update(current, actions, condition=Settlement.Version == version,
              on_fail=money_guards.stale_version("Settlement"))
    old = balances.settlement_nets(current.PayerId, current.PayeeId, current.Amount)
    balances.add_to_balance(tx, access.group_id,
                            balances.deltas(old, balances.settlement_nets(payer, payee, amount)))
    changelog.record(tx, access.group, current, actor=access.participant_id,
                   diff=changelog.diff_of(_compared(current.PayerId, current.PayeeId, current.Amount,
                                                  current.Date, current.Note),
                                        _compared(payer, payee, amount, date, note)),
                   subject={"amount": amount, "payerId": payer, "payeeId": payee})
    money_guards.commit(tx, access.group)
    return get_settlement(access, settlement_id)


def delete_settlement(access: Access, settlement_id: str) -> None:
    """Delete a settlement; its balance effect is reversed in the same transaction."""
    for _ in range(_DELETE_ATTEMPTS):
        current = find_settlement(access.group_id, settlement_id)
        tx = Transaction()
        money_guards.check_writer(tx, access)
        # Conditioned on the version read: the reversed delta is computed from it.
        tx.delete(current, condition=Settlement.Version == int(current.Version),
                  on_fail=version_conflict("settlement"))
        reverse = balances.settlement_nets(current.PayeeId, current.PayerId, current.Amount)
        balances.add_to_balance(tx, access.group_id, reverse, settlements=-1)
        changelog.record(tx, access.group, current, changelog.DELETE, actor=access.participant_id)
        try:
            tx.commit()
            return
        except Conflict as error:
            if error.code != "VERSION_CONFLICT":
                raise
    raise Conflict("The settlement keeps changing; try again.", code="CONCURRENT_UPDATE")
