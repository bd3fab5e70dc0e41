"""Participant transfer: move every money reference of one participant to another, then
remove the source (a GUEST) or unlock it (a USER keeps its membership, now without history).

1. Lock: one TransactWrite sets the source's TransferTarget and adds 1 to the target's
   IncomingTransfers, conditioned on the source being unlocked with nothing transferring
   into it and on the target existing unlocked. From then on every money write naming the
   source is refused (the guards check TransferTarget), and the target can neither be
   removed nor start a transfer of its own. A call naming the same target again resumes.
2. Rewrite, in passes: each pass queries the base table per row kind (sort-key prefix in the
   key condition, EntityType in the filter, paging past pages the filter emptied), strongly
   consistent, and rewrites the rows that name the source in batches: one TransactWrite per
   batch holds each row's versioned write (Version for expenses and settlements, UpdatedAt
   for recurring templates), the batch's summed BALANCE#v1 deltas, and checks that the group
   is live, the source still locked to this target and the target still usable. A row that
   changed meanwhile is skipped and found again by the next pass.
3. A pass that finds no row naming the source is the strongly consistent proof that none is
   left (the lock guarantees none can appear): then the source is removed or unlocked and
   the target's IncomingTransfers taken back, in one TransactWrite.

Any failure leaves the lock in place, and the same call resumes from whatever is left.
A settlement between the source and the target would become a payment to oneself, which
has no effect on the merged net: it is deleted with its balance effect reversed."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import List, Optional

from app.errors import (Conflict, DomainError, Invalid, concurrent_update, not_found,
                        participant_unavailable, ConcurrentUpdate)
from app.groups.errors import transfer_in_progress
from app.core import cascades, changelog
from app.core.access import Access
from app.core.clock import now_iso
from app.core.transactions import Transaction
from app.groups.join_requests import cancel_takeovers_of
from app.groups.membership import (GUEST, USER, change_counts, get_participant, reread_head,
                                   require_live_group, require_still_owner)
from app.groups.participants import REFERENCING_ROWS, participant_ids_in
from app.groups.transfer_rows import RowChange, RowChanged, change_for
from app.ledger import balances, guards as money_guards, rounding
from models.groups import GroupItem, Participant

# Rows per rewrite transaction (each is one item; the balance row and three checks join
# them), and a cap on their summed size well inside DynamoDB's 4 MB per transaction.
BATCH_ROWS = 25
# The route's access check reads the balance row too: each batch's delta is encoded against
# it (and against the seats the batch before left), so no batch reads it again.
PREFETCH = balances.BALANCES_PREFETCH
BATCH_BYTES = 2_000_000
# Passes before giving up for now (each pass after the first only meets rows that changed
# under the previous one); the lock stays and the same call resumes.
MAX_PASSES = 6
# Rows a rewrite query asks for per page (None: DynamoDB's 1 MB pages); tests shrink it to
# prove that pages the EntityType filter emptied (comments under EXPENSE#) are paged past.
PAGE_SIZE: Optional[int] = None


class _LockLost(ConcurrentUpdate):
    pass


@dataclass
class Outcome:
    """What one call moved; a resumed call reports only its own part."""

    expenses: int = 0
    settlements: int = 0
    settlements_deleted: int = 0
    recurring: int = 0
    conversions: int = 0
    passes: int = 0


# --- the use case --------------------------------------------------------------------------

def transfer_participant(access: Access, source_id: str, target_id: str) -> dict:
    """Lock (or resume), rewrite every reference, then remove or unlock the source."""
    if source_id == target_id:
        raise Invalid("A participant cannot be transferred to itself.",
                      details={"targetParticipantId": ["Must differ from the source."]})
    source = get_participant(access.group_id, source_id)
    if source.TransferTarget != target_id:
        _lock(access, source, target_id)
    outcome = Outcome()
    for _ in range(MAX_PASSES):
        outcome.passes += 1
        if not _rewrite_pass(access, source_id, target_id, outcome):
            break
    else:
        raise concurrent_update("The group's expenses kept changing during the transfer; "
                                "call again to resume it.")
    removed = _finish(access, source_id, target_id)
    return {"sourceParticipantId": source_id, "targetParticipantId": target_id,
            "sourceRemoved": removed, "expenses": outcome.expenses,
            "settlements": outcome.settlements,
            "settlementsDeleted": outcome.settlements_deleted,
            "recurring": outcome.recurring, "conversions": outcome.conversions}


# --- 1. lock -------------------------------------------------------------------------------

def _lock(access: Access, source: Participant, target_id: str) -> None:
    if source.TransferTarget:
        raise transfer_in_progress("This participant is already being transferred to "
                                   "someone else.")
    if int(source.IncomingTransfers or 0):
        raise transfer_in_progress("Another participant is being transferred into this one.")
    tx = Transaction().without_change("the transfer lock is not part of any read")
    tx.update(Participant(access.group_id, source.SK),
              [Participant.TransferTarget.set(target_id), Participant.UpdatedAt.set(now_iso())],
              condition=(Participant.SK.exists() & Participant.TransferTarget.does_not_exist()
                         & _nothing_incoming()),
              on_fail=lambda old: _why_source_refused(old, target_id))
    tx.update(Participant(access.group_id, Participant.sort_key(target_id)),
              [Participant.IncomingTransfers.add(1)],
              condition=Participant.SK.exists() & Participant.TransferTarget.does_not_exist(),
              on_fail=participant_unavailable(target_id))
    require_live_group(tx, access.group_id, roster_change=True)
    require_still_owner(tx, access)
    try:
        tx.commit()
    except _SameTargetLocked:
        return  # a concurrent identical call locked it first: resume alongside it


class _SameTargetLocked(ConcurrentUpdate):
    pass


def _nothing_incoming():
    return (Participant.IncomingTransfers.does_not_exist()
            | (Participant.IncomingTransfers == 0))


def _why_source_refused(old: Optional[dict], target_id: str) -> DomainError:
    source = Participant.from_raw(old)
    if source is None:
        return not_found("Participant")
    locked_to = source.TransferTarget
    if locked_to == target_id:
        return _SameTargetLocked("Locked by a concurrent call.")
    if locked_to:
        return transfer_in_progress("This participant is already being transferred to "
                                    "someone else.")
    return transfer_in_progress("Another participant is being transferred into this one.")


# --- 2. rewrite ----------------------------------------------------------------------------

def _rewrite_pass(access: Access, source_id: str, target_id: str, outcome: Outcome) -> int:
    """Rewrite every row naming the source; returns how many such rows the pass met."""
    met = 0
    for prefix, kind in REFERENCING_ROWS:
        for page in GroupItem.raw_pages(access.group_id,
                                        range_key_condition=GroupItem.SK.startswith(prefix),
                                        filter_condition=GroupItem.EntityType == kind,
                                        page_size=PAGE_SIZE):
            changes = [change_for(raw, source_id, target_id, access.group.Currency)
                       for raw in page
                       if source_id in participant_ids_in(raw)]
            met += len(changes)
            for batch in _batches(changes):
                _commit(access, source_id, target_id, batch, outcome)
    return met


def _batches(changes: List[RowChange]):
    batch: List[RowChange] = []
    size = 0
    for change in changes:
        if batch and (len(batch) == BATCH_ROWS or size + change.size > BATCH_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(change)
        size += change.size
    if batch:
        yield batch


def _commit(access: Access, source_id: str, target_id: str, batch: List[RowChange],
            outcome: Outcome) -> None:
    """The batch in one transaction; if a row changed meanwhile, each row on its own."""
    try:
        money_guards.commit(_transaction(access, source_id, target_id, batch), access.group)
    except RowChanged:
        if len(batch) == 1:
            return  # the next pass reads it again
        for change in batch:
            _commit(access, source_id, target_id, [change], outcome)
        return
    except Conflict as error:
        if error.code != ConcurrentUpdate.code or isinstance(error, _LockLost):
            raise
        if len(batch) == 1:
            return  # contention outlasted the retries: the next pass meets the row again
        for change in batch:  # contention outlasted the retries: smaller transactions
            _commit(access, source_id, target_id, [change], outcome)
        return
    for change in batch:
        if change.kind == "settlement_deleted":
            outcome.settlements_deleted += 1
        else:
            setattr(outcome, change.kind, getattr(outcome, change.kind) + 1)


def _transaction(access: Access, source_id: str, target_id: str,
                 batch: List[RowChange]) -> Transaction:
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    tx.check(Participant, access.group_id, Participant.sort_key(source_id),
             condition=Participant.TransferTarget == target_id,
             on_fail=_LockLost("The transfer's lock is gone; call again."))
    money_guards.check_participants(tx, access.group_id, [target_id])
    delta: dict = {}
    pairs: dict = {}
    for change in batch:
        change.add(tx)
        changelog.record(tx, access.group, change.row, change.op, actor=access.participant_id)
        for pid, value in change.delta.items():
            delta[pid] = delta.get(pid, 0) + value
        for key, value in change.pairs.items():
            pairs[key] = pairs.get(key, 0) + value
    balances.add_to_balance(tx, access.group_id, {k: v for k, v in delta.items() if v},
                            settlements=sum(change.settlements for change in batch),
                            pairs=pairs, **_fair_rounding(access, batch))
    return tx


def _fair_rounding(access: Access, batch: List[RowChange]) -> dict:
    """A FAIR group's cumulative rounding follows the source onto the target: read, moved by
    the batch's rows and written back, conditioned on the balance revision read (moved
    meanwhile: RowChanged, so the batch is tried again row by row, then by the next pass)."""
    fair = rounding.read_state(access.group)
    if fair is None:
        return balances.against(access)
    after = rounding.combined(fair.stored, *(change.rounding for change in batch))
    return fair.update(after, on_fail=RowChanged("The balances moved meanwhile."))


# --- 3. finish -----------------------------------------------------------------------------

def _finish(access: Access, source_id: str, target_id: str) -> bool:
    """Remove a GUEST source or unlock a USER one; True when removed. Idempotent."""
    for _ in range(3):
        try:
            source = get_participant(access.group_id, source_id)
        except DomainError:
            return True  # a concurrent identical call finished it
        if source.TransferTarget != target_id:
            if source.TransferTarget is None and source.Type == USER:
                return False  # a concurrent identical call unlocked it
            raise _LockLost("The transfer's lock is gone; call again.")
        tx = Transaction()
        held = (Participant.TransferTarget == target_id) & (Participant.Type == source.Type)
        if source.Type == GUEST:
            tx.delete(Participant(access.group_id, source.SK), condition=held,
                      on_fail=concurrent_update())
            # the default split's share of the source passes to the target with the rest
            change_counts(tx, access.group, participants=-1, leaving=source_id,
                          heir=target_id)
            changelog.record(tx, access.group, Participant(access.group_id, source.SK),
                              changelog.DELETE, actor=access.participant_id)
        else:
            tx.without_change("unlocking changes nothing any read shows")
            tx.update(Participant(access.group_id, source.SK),
                      [Participant.TransferTarget.remove(), Participant.UpdatedAt.set(now_iso())],
                      condition=held, on_fail=concurrent_update())
            require_live_group(tx, access.group_id, roster_change=True)
        tx.update(Participant(access.group_id, Participant.sort_key(target_id)),
                  [Participant.IncomingTransfers.add(-1)], condition=Participant.SK.exists())
        require_still_owner(tx, access)
        try:
            tx.commit()
        except Conflict as error:
            if error.code != ConcurrentUpdate.code:
                raise
            # re-read: finished by someone else, the source's type changed, or the roster
            # or default split moved (the default is rewritten from the head as it is now)
            head = reread_head(access.group)
            if head is not None:
                access = replace(access, group=head)
            continue
        if source.Type == GUEST:
            cancel_takeovers_of(access.group_id, source_id)
            if source.InvitedUserId:
                cascades.guest_removed(access.group_id, source.InvitedUserId, source_id)
            return True
        return False
    raise concurrent_update("The participant kept changing; call again to finish.")
