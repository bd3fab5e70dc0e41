"""Materialised group nets (``BALANCE#v1``): deltas inside money writes, reads, legacy backfill.

A net is paid - owed (+ settlements); positive means the participant is owed money. Every
expense and settlement create, edit and delete adds its old-to-new deltas, its activity
count and one BalanceRevision to the balance row in the same TransactWrite as the change,
so reading balances is one GetItem however many expenses the group has."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple

from pynamodb.expressions.operand import Path

from app.errors import Conflict
from app.money.settle import settle_up
from app.services.core.access import Access
from app.services.core.transactions import Transaction
from app.services.core.conditional import update_if
from models.groups import BALANCE, EXPENSE_PREFIX, Balance, Expense, Participant, Settlement

Nets = Dict[str, int]
_BACKFILL_ATTEMPTS = 5
FORMER_PARTICIPANT = "Former participant"
BALANCES_PREFETCH = (BALANCE,)


def expense_nets(expense: Expense) -> Nets:
    """paid - owed per participant of a stored expense, from its resolved split amounts."""
    nets: Nets = {}
    for payment in expense.Payments or []:
        nets[payment.ParticipantId] = nets.get(payment.ParticipantId, 0) + int(payment.Amount)
    for item in expense.Items or []:
        for split in item.Splits or []:
            nets[split.ParticipantId] = nets.get(split.ParticipantId, 0) - int(split.Amount)
    return nets


def expense_participants(expense: Expense) -> set:
    """Every participant a stored expense names (payers and split members)."""
    ids = {payment.ParticipantId for payment in expense.Payments or []}
    for item in expense.Items or []:
        ids.update(split.ParticipantId for split in item.Splits or [])
    return ids


def settlement_nets(payer_id: str, payee_id: str, amount: int) -> Nets:
    """Paying someone back raises the payer's net and lowers the payee's by the same amount."""
    return {payer_id: int(amount), payee_id: -int(amount)}


def deltas(old: Mapping[str, int], new: Mapping[str, int]) -> Nets:
    """new - old per participant, zeros dropped."""
    change = {pid: new.get(pid, 0) - old.get(pid, 0) for pid in set(old) | set(new)}
    return {pid: value for pid, value in sorted(change.items()) if value}


def add_to_balance(tx: Transaction, group_id: str, delta: Mapping[str, int], *,
                   expenses: int = 0, settlements: int = 0) -> None:
    """Add net deltas, activity counts and one revision to the balance row inside ``tx``.

    ADD creates a missing (legacy) row; such a row stays uninitialised, so its partial
    nets are never served until the backfill recomputes them."""
    actions = [Path(Balance.net_attribute(pid)).add(value) for pid, value in delta.items()]
    actions.append(Balance.BalanceRevision.add(1))
    if expenses:
        actions.append(Balance.ExpenseCount.add(expenses))
    if settlements:
        actions.append(Balance.SettlementCount.add(settlements))
    actions.append(Path("EntityType").set(Path("EntityType") | "BALANCE"))
    tx.update(Balance(*Balance.key(group_id)), actions)


@dataclass(frozen=True)
class Recount:
    """Nets and counts recomputed from every expense and settlement row of a group."""

    nets: Nets
    expense_count: int
    settlement_count: int


def recompute(group_id: str, page_size: Optional[int] = None) -> Recount:
    """Fold every expense head and settlement of the group (strongly consistent reads).

    ``page_size`` bounds each Query page (an import's check of 20,000 rows keeps every call
    short on the embedded engine, whose cost per page grows with the page)."""
    nets: Nets = {}
    expense_count = settlement_count = 0
    # The subclass query filters on EntityType, so comment rows are read but not returned.
    for expense in Expense.query(group_id, Expense.SK.startswith(EXPENSE_PREFIX),
                                 consistent_read=True, page_size=page_size):
        expense_count += 1
        for pid, value in expense_nets(expense).items():
            nets[pid] = nets.get(pid, 0) + value
    for settlement in Settlement.newest_first(group_id, consistent_read=True,
                                              page_size=page_size):
        settlement_count += 1
        for pid, value in settlement_nets(settlement.PayerId, settlement.PayeeId,
                                          settlement.Amount).items():
            nets[pid] = nets.get(pid, 0) + value
    return Recount({pid: v for pid, v in sorted(nets.items()) if v}, expense_count,
                   settlement_count)


def served_nets(group_id: str, raw: Optional[dict]) -> Tuple[Nets, int]:
    """(nets, revision) from a fetched balance row, backfilling an uninitialised one first."""
    for _ in range(_BACKFILL_ATTEMPTS):
        if Balance.is_initialized(raw):
            return {pid: v for pid, v in Balance.nets_of(raw).items() if v}, Balance.revision_of(raw) or 0
        if _backfill(group_id, raw):
            raw = Balance.fetch_raw(group_id)
            continue
        raw = Balance.fetch_raw(group_id)  # lost a race with a money write: look again
    raise Conflict("Balances are being rebuilt; try again.", code="CONCURRENT_UPDATE")


def _backfill(group_id: str, raw: Optional[dict]) -> bool:
    """Recompute from the partition and mark Initialized, if no money write came between.

    The partition is read after the balance row, and the write conditions on the revision
    we saw: any money write in between bumps it, so stale nets can never be marked
    initialised."""
    revision = Balance.revision_of(raw)
    recount = recompute(group_id)
    stale = [name for name in (raw or {}) if name.startswith("Net_")
             and name[len("Net_"):] not in recount.nets]
    actions = [Path(Balance.net_attribute(pid)).set(v) for pid, v in recount.nets.items()]
    actions += [Path(name).remove() for name in stale]
    actions += [Balance.Initialized.set(True), Balance.ExpenseCount.set(recount.expense_count),
                Balance.SettlementCount.set(recount.settlement_count),
                Balance.BalanceRevision.set(revision or 0),
                Path("EntityType").set("BALANCE")]
    condition = (Balance.BalanceRevision == revision if revision is not None
                 else Balance.BalanceRevision.does_not_exist())
    return update_if(Balance(group_id, BALANCE), actions, condition)


def group_nets(group_id: str) -> Tuple[Nets, int]:
    """(non-zero nets, revision) of a group: one GetItem unless a backfill is due."""
    return served_nets(group_id, Balance.fetch_raw(group_id))


def net_of(group_id: str, participant_id: str) -> int:
    """One participant's net, folded exactly as the balances route folds it."""
    return group_nets(group_id)[0].get(participant_id, 0)


@dataclass(frozen=True)
class BalanceRow:
    participant_id: str
    display_name: str
    net: int


@dataclass(frozen=True)
class Transfer:
    from_id: str
    to_id: str
    amount: int


@dataclass(frozen=True)
class Balances:
    """A group's nets over its roster and the settle-up plan that clears them."""

    currency: str
    revision: int
    rows: List[BalanceRow]
    transfers: List[Transfer]


def group_balances(access: Access) -> Balances:
    """Every roster participant's net (0 if absent) and a minimal settle-up plan.

    Authorize with ``prefetch=BALANCES_PREFETCH`` and the balance row comes with it: two
    DynamoDB calls in all (that BatchGetItem, then the roster)."""
    if BALANCE in access.prefetched:
        nets, revision = served_nets(access.group_id, access.prefetched[BALANCE])
    else:
        nets, revision = group_nets(access.group_id)
    roster = list(Participant.roster(access.group_id, consistent_read=True))
    rows = [BalanceRow(p.ParticipantId, p.DisplayName, nets.get(p.ParticipantId, 0))
            for p in roster]
    known = {p.ParticipantId for p in roster}
    # A removed participant can't hold a non-zero net (removal is refused while referenced);
    # if one ever does, show it rather than serve nets that no longer sum to zero.
    rows += [BalanceRow(pid, FORMER_PARTICIPANT, net)
             for pid, net in nets.items() if pid not in known]
    transfers = [Transfer(a, b, amount)
                 for a, b, amount in settle_up({r.participant_id: r.net for r in rows})]
    return Balances(access.group.Currency, revision, rows, transfers)
