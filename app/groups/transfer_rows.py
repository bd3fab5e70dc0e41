"""One row's part of a transfer's rewrite transaction: the versioned write that renames (or
merges) the source into the target, and the balance delta that write implies.

Each write is conditioned on the version the pass read (Version for expenses and
settlements, UpdatedAt for recurring templates), so the delta computed from that read is
exactly the one the committed write causes; a row changed meanwhile fails with
:class:`RowChanged` and is read again by the next pass."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

from app.errors import ConcurrentUpdate, Conflict
from app.core.clock import now_iso
from app.core.transactions import Transaction
from app.groups.transfer_merge import merge_body, merge_extras
from app.ledger import balances, rounding as fair_rounding
from app.money import pairwise
from app.ledger.expense_body import ExpenseBody
from models.groups import (Conversion, Expense, ExpenseTemplateMap, GroupItem,
                           RecurringExpense, Settlement)


class RowChanged(ConcurrentUpdate):
    """A rewritten row's version moved (or it was deleted) since the pass read it."""


@dataclass
class RowChange:
    """One row's part of a rewrite transaction."""

    kind: str
    add: Callable[[Transaction], object]
    delta: dict
    size: int
    settlements: int = 0
    row: object = None  # the rewritten row (its key), for the change log
    op: str = "UPSERT"
    pairs: dict = field(default_factory=dict)  # the pairwise view's delta (balances.pair_key)
    rounding: dict = field(default_factory=dict)  # FAIR groups' r delta (app.ledger.rounding)


def renamed(body: ExpenseBody, source_id: str, target_id: str) -> ExpenseBody:
    """The body with the source folded into the target; every other field kept."""
    payments, items = merge_body(body.payments, body.items, source_id, target_id)
    return body.with_participants(payments, items, merge_extras(body.items, body.extras,
                                                                source_id, target_id))


def change_for(raw: dict, source_id: str, target_id: str, main_currency: str) -> RowChange:
    row = GroupItem.from_raw_data(raw)
    size = len(json.dumps(raw))
    changed = RowChanged("Changed meanwhile.")
    now = now_iso()
    if isinstance(row, Settlement):
        return _settlement_change(row, source_id, target_id, size, changed, now, main_currency)
    if isinstance(row, Conversion):
        return _conversion_change(row, source_id, target_id, size, changed, now)
    if isinstance(row, Expense):
        new = renamed(ExpenseBody.from_row(row), source_id, target_id)
        version = int(row.Version)
        key = Expense(row.GroupId, row.SK)
        # Only the attributes naming participants change; the rest of the row stays.
        actions = [getattr(Expense, name).set(value) if value is not None
                   else getattr(Expense, name).remove()
                   for name, value in new.participant_attributes().items()]
        actions += [Expense.Version.set(version + 1), Expense.UpdatedAt.set(now)]
        return RowChange("expenses", lambda tx: tx.update(
            key, actions, condition=Expense.Version == version, on_fail=changed),
            balances.deltas(balances.expense_nets(row, main_currency),
                            balances.expense_nets(new.as_row(), main_currency)),
            size, row=key, pairs=balances.deltas(balances.expense_pairs(row, main_currency),
                                                 balances.body_pairs(new, main_currency)),
            rounding=fair_rounding.combined(
                fair_rounding.body_rounding(new, main_currency),
                fair_rounding.body_rounding(ExpenseBody.from_row(row), main_currency),
                signs=(1, -1)))
    template = ExpenseTemplateMap(**renamed(ExpenseBody.from_template(row), source_id,
                                            target_id).to_template_attributes())
    key = RecurringExpense(row.GroupId, row.SK)
    condition = (RecurringExpense.UpdatedAt == row.UpdatedAt if row.UpdatedAt
                 else RecurringExpense.UpdatedAt.does_not_exist())
    # A template moves no money; the balance row's revision still moves (see templates.py).
    return RowChange("recurring", lambda tx: tx.update(
        key, [RecurringExpense.Template.set(template), RecurringExpense.UpdatedAt.set(now)],
        condition=condition, on_fail=changed), {}, size, row=key)


def _settlement_change(row: Settlement, source_id: str, target_id: str, size: int,
                       changed: Conflict, now: str, main_currency: str) -> RowChange:
    version = int(row.Version)
    old = balances.stored_settlement_nets(row, main_currency)
    old_pairs = balances.stored_settlement_pairs(row, main_currency)
    key = Settlement(row.GroupId, row.SK)
    if {row.PayerId, row.PayeeId} == {source_id, target_id}:
        reverse = {pid: -value for pid, value in old.items()}
        return RowChange("settlement_deleted", lambda tx: tx.delete(
            key, condition=Settlement.Version == version, on_fail=changed),
            reverse, size, settlements=-1, row=key, op="DELETE",
            pairs=balances.deltas(old_pairs, {}))
    payer = target_id if row.PayerId == source_id else row.PayerId
    payee = target_id if row.PayeeId == source_id else row.PayeeId
    actions = [Settlement.PayerId.set(payer), Settlement.PayeeId.set(payee),
               Settlement.Version.set(version + 1), Settlement.UpdatedAt.set(now)]
    return RowChange("settlements", lambda tx: tx.update(
        key, actions, condition=Settlement.Version == version, on_fail=changed),
        balances.deltas(old, balances.stored_settlement_nets(
            row, main_currency, payer_id=payer, payee_id=payee)), size, row=key,
        pairs=balances.deltas(old_pairs, balances.stored_settlement_pairs(
            row, main_currency, payer_id=payer, payee_id=payee)))


def _merged_nets(nets: dict, source_id: str, target_id: str) -> dict:
    """participantId -> net with the source's added to the target's (zeros dropped)."""
    out = {pid: int(value) for pid, value in nets.items() if pid != source_id}
    out[target_id] = out.get(target_id, 0) + int(nets.get(source_id, 0))
    return {pid: value for pid, value in out.items() if value}


def _conversion_change(row: Conversion, source_id: str, target_id: str, size: int,
                       changed: Conflict, now: str) -> RowChange:
    """A conversion's kept and converted nets follow the source onto the target, so both the
    main and the kept section move with everything else (and an undo gives them back to the
    target)."""
    kept = _merged_nets(row.KeptNets.as_dict(), source_id, target_id)
    converted = _merged_nets(row.GroupNets.as_dict(), source_id, target_id)
    kept_pairs = (None if row.KeptPairs is None
                  else _merged_pairs(row.KeptPairs.as_dict(), source_id, target_id))
    new = Conversion(row.GroupId, row.SK, Currency=row.Currency, KeptNets=kept,
                     GroupNets=converted, KeptPairs=kept_pairs)
    key = Conversion(row.GroupId, row.SK)
    condition = (Conversion.UpdatedAt == row.UpdatedAt if row.UpdatedAt
                 else Conversion.UpdatedAt.does_not_exist())
    actions = [Conversion.KeptNets.set(kept), Conversion.GroupNets.set(converted),
               Conversion.UpdatedAt.set(now)]
    if kept_pairs is not None:
        actions.append(Conversion.KeptPairs.set(kept_pairs))
    return RowChange("conversions", lambda tx: tx.update(
        key, actions, condition=condition, on_fail=changed),
        balances.deltas(balances.conversion_nets(row), balances.conversion_nets(new)),
        size, row=key, pairs=balances.deltas(balances.conversion_pairs(row),
                                             balances.conversion_pairs(new)))


def _merged_pairs(pairs: dict, source_id: str, target_id: str) -> dict:
    """A conversion's recorded ``<low>#<high>`` pairs with the source renamed the target,
    netted again (a pair of the two becomes nobody's debt)."""
    debts = {}
    for key, value in pairs.items():
        low, high = (target_id if pid == source_id else pid for pid in key.split("#"))
        debts[(low, high)] = debts.get((low, high), 0) + int(value)
    return {f"{low}#{high}": value for (low, high), value in pairwise.net_pairs(debts).items()}
