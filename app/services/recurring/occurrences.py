"""One template's due slots: claim, materialise, release or roll back.

Per slot, two DynamoDB calls:
1. claim: UpdateItem NextRunAt := lease, ClaimedSlot := slot, conditioned on the NextRunAt
   (and UpdatedAt) read in the snapshot. The slot is the only concurrency token: a second
   tick holding the same snapshot fails this condition and skips the row.
2. materialise: one TransactWrite of the expense (ExpenseId derived from (recurringId, slot),
   attribute_not_exists), its BALANCE#v1 delta, the EXPENSE_ADDED event, checks on the group
   head and every participant, and the template moved to its next slot (conditioned on the
   lease and ClaimedSlot, so only the claimant can release it).

The lease makes a tick killed between 1 and 2 harmless: the row stays in the due index with
NextRunAt = lease, so once the lease lapses the next tick sees ClaimedSlot and records that
slot (the deterministic id keeps it to one expense). Domain failures release the slot to the
next occurrence; transient ones roll NextRunAt back to the slot and re-raise. A participant
held by a transfer is transient too, but local to the template: its slot is rolled back and
waits for the next tick (the transfer rewrites the template to the target meanwhile), and the
rest of the bucket goes on.
"""
from __future__ import annotations

import uuid
from collections import Counter
from datetime import date, datetime, timedelta
from typing import Optional


from app.errors import Conflict, DomainError, NotFound
from app.logs import logger
from app.services.core import outbox
from app.services.core.clock import now_iso
from app.services.core.transactions import Transaction
from app.services.ledger import balances, guards as money_guards
from app.services.recurring.schedule import iso
from app.services.recurring.templates import schedule_of
from app.services.core.conditional import update_if
from app.services.groups.membership import get_participant
from models.groups import Expense, Group, RecurringExpense

LEASE = timedelta(minutes=15)
# Fixed forever: changing it would give an already-recorded slot a second expense id.
OCCURRENCE_NAMESPACE = uuid.UUID("6f1c2a54-9b1e-4c55-8a43-0d3c6a1f7e21")


def occurrence_id(recurring_id: str, slot: str) -> str:
    """The expense id of one occurrence: uuid5 of (recurringId, slot), shaped as a v4 id."""
    digest = uuid.uuid5(OCCURRENCE_NAMESPACE, f"{recurring_id}#{slot}")
    return str(uuid.UUID(bytes=digest.bytes, version=4))


class _AlreadyRecorded(Conflict):
    code = "ALREADY_RECORDED"


class _TemplateChanged(Conflict):
    code = "TEMPLATE_CHANGED"


def claim(row: RecurringExpense, prev: str, slot: str, lease: str) -> bool:
    """Take ``slot`` if NextRunAt still holds ``prev``; False if another tick moved it."""
    return update_if(RecurringExpense(row.GroupId, row.SK),
                     [RecurringExpense.NextRunAt.set(lease), RecurringExpense.ClaimedSlot.set(slot)],
                     (RecurringExpense.NextRunAt == prev)
                     & (RecurringExpense.UpdatedAt == row.UpdatedAt))


def participant_ids(row: RecurringExpense) -> set:
    body = row.Template
    return ({p.ParticipantId for p in body.Payments}
            | {s.ParticipantId for item in body.Items for s in item.Splits})


def _advance_actions(row: RecurringExpense, slot: str, following: Optional[date],
                     next_run_at: Optional[str]) -> list:
    return ([RecurringExpense.ClaimedSlot.remove(), RecurringExpense.LastSlot.set(slot),
             RecurringExpense.NextSlot.set(following.isoformat()) if following
             else RecurringExpense.NextSlot.remove()]
            + RecurringExpense.due_actions(row.GroupId, next_run_at))


def _held(slot: str, lease: str):
    return (RecurringExpense.NextRunAt == lease) & (RecurringExpense.ClaimedSlot == slot)


def materialise(row: RecurringExpense, slot: str, lease: str, following: Optional[date],
                next_run_at: Optional[str]) -> str:
    """Record the occurrence and release the slot in one TransactWrite; returns the expense id."""
    expense_id, now = occurrence_id(row.RecurringId, slot), now_iso()
    body = row.Template
    expense = Expense(row.GroupId, Expense.sort_key(expense_id), ExpenseId=expense_id,
                      ExpenseSortKey=Expense.expense_sort_key(slot, now, expense_id),
                      Description=body.Description, Category=body.Category, Date=slot,
                      Currency=row.Currency, Amount=body.Amount, Payments=body.Payments,
                      Items=body.Items, Version=1, CreatedBy=row.CreatedBy,
                      UpdatedBy=row.CreatedBy, CreatedAt=now, UpdatedAt=now,
                      RecurringId=row.RecurringId, RecurringSlot=slot)
    nets = balances.expense_nets(body)
    tx = Transaction()
    # Still ACTIVE and still in the currency the template was priced in.
    money_guards.check_group(tx, Group(*Group.key(row.GroupId), Currency=row.Currency))
    money_guards.check_participants(tx, row.GroupId, participant_ids(row))
    tx.put(expense, condition=Expense.SK.does_not_exist(),
           on_fail=_AlreadyRecorded("This occurrence is already recorded."))
    balances.add_to_balance(tx, row.GroupId, balances.deltas({}, nets), expenses=1)
    outbox.add_event(tx, "EXPENSE_ADDED", scope_id=row.GroupId, resource_id=expense_id,
                     revision=1, actor_user_id=row.CreatedBy or "recurring",
                     group_id=row.GroupId,
                     payload={"recurringId": row.RecurringId, "slot": slot})
    tx.update(RecurringExpense(row.GroupId, row.SK),
              _advance_actions(row, slot, following, next_run_at), condition=_held(slot, lease),
              on_fail=_TemplateChanged("The template changed during the claim."))
    tx.commit()
    return expense_id


def release(row: RecurringExpense, slot: str, lease: str, following: Optional[date],
            next_run_at: Optional[str]) -> bool:
    """Keep the slot claimed (move on to the next one) without recording it."""
    return update_if(RecurringExpense(row.GroupId, row.SK),
                     _advance_actions(row, slot, following, next_run_at), _held(slot, lease))


def roll_back(row: RecurringExpense, prev: str, slot: str, lease: str) -> None:
    """Put NextRunAt back to the slot, if our claim still holds; never raises."""
    try:
        RecurringExpense(row.GroupId, row.SK).update(
            actions=[RecurringExpense.NextRunAt.set(prev), RecurringExpense.ClaimedSlot.remove()],
            condition=_held(slot, lease))
    except Exception:  # noqa: BLE001 — the lease expiry retries the slot anyway
        logger.exception("recurring.rollback_failed",
                         extra={"recurringId": row.RecurringId, "slot": slot})


def run_slots(row: RecurringExpense, now: datetime, counts: Counter, budget: int) -> int:
    """Record every due slot of one template read in the snapshot, oldest first.

    Returns how many slots it used of ``budget``. After each of our own conditioned writes
    the row's state is known exactly, so later slots need no re-read."""
    schedule = schedule_of(row)
    now_text, lease = iso(now), iso(now + LEASE)
    prev, slot, used = row.NextRunAt, row.ClaimedSlot or row.NextSlot, 0
    while slot and prev and prev <= now_text and used < budget:
        if not claim(row, prev, slot, lease):
            counts["skipped"] += 1
            return used
        used += 1
        following = schedule.after(date.fromisoformat(slot))
        next_run_at = schedule.run_at(following) if following else None
        try:
            materialise(row, slot, lease, following, next_run_at)
            counts["created"] += 1
        except _TemplateChanged:
            counts["skipped"] += 1  # deleted, or re-claimed after our lease lapsed
            return used
        except DomainError as error:
            if error.code == "CONCURRENT_UPDATE":  # contention that outlasted the retries
                roll_back(row, prev, slot, lease)
                counts["rolledBack"] += 1
                raise
            if _held_by_transfer(row.GroupId, error):
                roll_back(row, prev, slot, lease)
                counts["deferred"] += 1
                logger.info("recurring.occurrence_deferred",
                            extra={"recurringId": row.RecurringId, "groupId": row.GroupId,
                                   "slot": slot, "reason": "participant transfer"})
                return used
            already = isinstance(error, _AlreadyRecorded) or error.code == "DUPLICATE_EVENT"
            if not release(row, slot, lease, following, next_run_at):
                counts["skipped"] += 1
                return used
            if already:
                counts["skipped"] += 1
            else:
                counts["failed"] += 1
                logger.warning("recurring.occurrence_failed",
                               extra={"recurringId": row.RecurringId, "groupId": row.GroupId,
                                      "slot": slot, "code": error.code})
        except Exception:
            roll_back(row, prev, slot, lease)
            counts["rolledBack"] += 1
            raise
        prev, slot = next_run_at, following.isoformat() if following else None
    return used


def _held_by_transfer(group_id: str, error: DomainError) -> bool:
    """The occurrence failed because a participant it names is mid-transfer (not gone)."""
    if error.code != "PARTICIPANT_UNAVAILABLE":
        return False
    try:
        participant = get_participant(group_id, (error.details or {}).get("participantId", ""))
    except NotFound:
        return False
    return bool(participant.TransferTarget)
