"""One template's due slots: claim, materialise, release or roll back.

Per slot, two DynamoDB calls:
1. claim: UpdateItem NextRunAt := lease, ClaimedSlot := slot, conditioned on the NextRunAt
   (and UpdatedAt) read in the snapshot. The slot is the only concurrency token: a second
   tick holding the same snapshot fails this condition and skips the row.
2. materialise: one TransactWrite of the expense (ExpenseId derived from (recurringId, slot),
   attribute_not_exists), its BALANCE#v1 delta, the EXPENSE_ADDED event, checks on the group
   head and every participant, and the template moved to its next slot (conditioned on the
   lease and ClaimedSlot, so only the claimant can release it). The head's check becomes the
   change log's revision update, numbered from the head the tick read for this template
   (tick.py: one BatchGetItem per 100 templates), so no slot reads the head on its own.

Notifications: a template with several slots due in one run (catch-up after a start in
the past or a tick outage) must not notify every member once per slot. Only the last slot a
run records carries an EXPENSE_ADDED event, in its own TransactWrite, and that event sums the
run up (``occurrences``, ``firstSlot``); the others are recorded silently. If that last slot
is not recorded after all (a domain failure, another tick), a summary for the last one that
was is written on its own afterwards, under the same event id, so it exists at most once.

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
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import List, Optional, Tuple


from app.errors import (ConcurrentUpdate, DomainError, DuplicateEvent, NotFound, concurrent_update,
                        ParticipantUnavailable)
from app.recurring.errors import (AlreadyRecorded, TemplateChanged, already_recorded,
                                 template_changed_during_claim)
from app.logs import logger
from app.core import changelog, outbox
from app.core.clock import now_iso
from app.core.transactions import Transaction
from app.ledger import balances, expense_build, guards as money_guards, rounding
from app.ledger.expense_body import ExpenseBody
from app.recurring.schedule import Schedule, iso, parse_instant
from app.recurring.templates import schedule_of
from app.core.conditional import update_if
from app.groups.membership import get_participant
from models.groups import BALANCE, Balance, Expense, Group, RecurringExpense

LEASE = timedelta(minutes=15)
# Slots one template records per run at most, so one template's catch-up cannot take its
# bucket's whole run (tick.MAX_SLOTS_PER_RUN); the rest follow on the next hourly runs. A
# month of daily occurrences: a year of daily backfill (the startDate window) takes 12 runs.
MAX_SLOTS_PER_TEMPLATE_RUN = 31
# Fixed forever: changing it would give an already-recorded slot a second expense id.
OCCURRENCE_NAMESPACE = uuid.UUID("6f1c2a54-9b1e-4c55-8a43-0d3c6a1f7e21")


def occurrence_id(recurring_id: str, slot: str) -> str:
    """The expense id of one occurrence: uuid5 of (recurringId, slot), shaped as a v4 id."""
    digest = uuid.uuid5(OCCURRENCE_NAMESPACE, f"{recurring_id}#{slot}")
    return str(uuid.UUID(bytes=digest.bytes, version=4))


def claim(row: RecurringExpense, prev: str, slot: str, lease: str) -> bool:
    """Take ``slot`` if NextRunAt still holds ``prev``; False if another tick moved it."""
    return update_if(RecurringExpense(row.GroupId, row.SK),
                     [RecurringExpense.NextRunAt.set(lease), RecurringExpense.ClaimedSlot.set(slot)],
                     (RecurringExpense.NextRunAt == prev)
                     & (RecurringExpense.UpdatedAt == row.UpdatedAt))


def _advance_actions(row: RecurringExpense, slot: str, following: Optional[date],
                     next_run_at: Optional[str]) -> list:
    return ([RecurringExpense.ClaimedSlot.remove(), RecurringExpense.LastSlot.set(slot),
             RecurringExpense.NextSlot.set(following.isoformat()) if following
             else RecurringExpense.NextSlot.remove()]
            + RecurringExpense.due_actions(row.GroupId, next_run_at))


def _held(slot: str, lease: str):
    return (RecurringExpense.NextRunAt == lease) & (RecurringExpense.ClaimedSlot == slot)


def _add_summary(tx: Transaction, row: RecurringExpense, expense_id: str, slot: str,
                 run: list) -> None:
    """The run's one EXPENSE_ADDED: for its last occurrence, naming how many it recorded."""
    body = row.Template
    outbox.add_event(tx, "EXPENSE_ADDED", scope_id=row.GroupId, resource_id=expense_id,
                     revision=1, actor_user_id=row.CreatedBy or "recurring",
                     group_id=row.GroupId,
                     payload={"recurringId": row.RecurringId, "slot": slot,
                              "description": body.Description, "amount": body.Amount,
                              "occurrences": len(run) + 1, "firstSlot": (run or [slot])[0]})


def materialise(row: RecurringExpense, slot: str, lease: str, following: Optional[date],
                next_run_at: Optional[str], summary: Optional[list] = None,
                head: Optional[Group] = None, balance: Optional[dict] = None) -> str:
    """Record the occurrence and release the slot in one TransactWrite; returns the expense id.

    ``summary`` (the slots this run recorded before, oldest first) makes it the run's last
    occurrence, which carries the run's one EXPENSE_ADDED; None records it silently.
    ``head``: the group head as the tick read it (see :func:`_logged_as`); a FAIR group's
    occurrence hands its leftover units out by the cumulative rounding it reads and writes
    the new one with it (app.ledger.rounding), read again if the balances moved meanwhile.
    ``balance``: the balance row as the tick holds it (``{BALANCE: raw}``, see
    :func:`run_slots`), which the balance delta is encoded against; None: read here."""
    for _ in range(rounding.ATTEMPTS):
        fair = None if head is None else rounding.read_state(head)
        try:
            return _materialise(row, slot, lease, following, next_run_at, summary, head, fair,
                                balance)
        except rounding.RoundingMoved:
            continue
    raise concurrent_update("The balances keep changing; the slot is tried again.")


def _materialise(row: RecurringExpense, slot: str, lease: str, following: Optional[date],
                 next_run_at: Optional[str], summary: Optional[list], head: Optional[Group],
                 fair: Optional[rounding.FairState], balance: Optional[dict] = None) -> str:
    expense_id, now = occurrence_id(row.RecurringId, slot), now_iso()
    body = expense_build.occurrence_body(ExpenseBody.from_template(row), row.Currency, slot)
    if fair is not None:
        body = expense_build.build(expense_build.input_of(body, slot), row.Currency,
                                   fair=fair.for_currency(body.currency, row.Currency)).body
    expense = Expense(row.GroupId, Expense.sort_key(expense_id), ExpenseId=expense_id,
                      **Expense.date_keys(slot, now, expense_id),
                      Date=slot, **body.to_row_attributes(),
                      Version=1, CreatedBy=row.CreatedBy,
                      UpdatedBy=row.CreatedBy, CreatedAt=now, UpdatedAt=now,
                      RecurringId=row.RecurringId, RecurringSlot=slot)
    nets = balances.body_nets(body, row.Currency)
    tx = Transaction()
    # Still ACTIVE and still in the currency the template was priced in.
    money_guards.check_group(tx, Group(*Group.key(row.GroupId), Currency=row.Currency))
    money_guards.check_participants(tx, row.GroupId, body.participant_ids)
    tx.put(expense, condition=Expense.SK.does_not_exist(),
           on_fail=already_recorded())
    if balance is None or BALANCE not in balance:
        balance = {BALANCE: Balance.fetch_raw(row.GroupId)}
    fair_update = {"row": balance[BALANCE], "held": balance} if fair is None else fair.update(
        rounding.combined(fair.stored, rounding.body_rounding(body, row.Currency)))
    balances.add_to_balance(tx, row.GroupId, balances.deltas({}, nets), expenses=1,
                            pairs=balances.body_pairs(body, row.Currency), **fair_update)
    if summary is not None:
        _add_summary(tx, row, expense_id, slot, summary)
    tx.update(RecurringExpense(row.GroupId, row.SK),
              _advance_actions(row, slot, following, next_run_at), condition=_held(slot, lease),
              on_fail=template_changed_during_claim())
    changelog.record(tx, _logged_as(row, head), expense, changelog.CREATE)
    changelog.record(tx, _logged_as(row, head), row)
    tx.commit()
    return expense_id


def _logged_as(row: RecurringExpense, head: Optional[Group]):
    """What the change log numbers this template's changes from: the head the tick read
    (its Revision is the one expected; a head another writer moved since is renumbered by
    the commit from the refused item's old image, and every commit of ours updates it), or,
    without one, the group id (the change log then reads the head: one GetItem a slot)."""
    return row.GroupId if head is None else head


def release(row: RecurringExpense, slot: str, lease: str, following: Optional[date],
            next_run_at: Optional[str], head: Optional[Group] = None) -> bool:
    """Move on to the next slot without recording this one; False if the claim is lost.

    The template's next and last dates move, which its reads show: a change like any other."""
    tx = Transaction().update(RecurringExpense(row.GroupId, row.SK),
                              _advance_actions(row, slot, following, next_run_at),
                              condition=_held(slot, lease))
    changelog.record(tx, _logged_as(row, head), row)
    try:
        tx.commit()
        return True
    except DomainError:  # the claim moved (or the group went meanwhile)
        return False


def roll_back(row: RecurringExpense, prev: str, slot: str, lease: str) -> None:
    """Put NextRunAt back to the slot, if our claim still holds; never raises."""
    try:
        RecurringExpense(row.GroupId, row.SK).update(
            actions=[RecurringExpense.NextRunAt.set(prev), RecurringExpense.ClaimedSlot.remove()],
            condition=_held(slot, lease))
    except Exception:  # noqa: BLE001 — the lease expiry retries the slot anyway
        logger.exception("recurring.rollback_failed",
                         extra={"recurringId": row.RecurringId, "slot": slot})


@dataclass
class _Run:
    """What one run did to one template: the slots it recorded and whether it notified."""

    recorded: List[Tuple[str, str]] = field(default_factory=list)  # (slot, expense id)
    notified: bool = False


def run_slots(row: RecurringExpense, now: datetime, counts: Counter, budget: int,
              head: Optional[Group] = None, balance: Optional[dict] = None) -> int:
    """Record the due slots of one template read in the snapshot, oldest first: at most
    MAX_SLOTS_PER_TEMPLATE_RUN of them, with one EXPENSE_ADDED for the lot. ``head``: its
    group's head as the tick read it (None: each slot's change log reads it); ``balance``:
    its balance row as the tick holds it (``{BALANCE: raw}``; None: each slot reads it).

    Returns how many slots it used of ``budget``. After each of our own conditioned writes
    the row's state is known exactly, so later slots need no re-read."""
    run = _Run()
    try:
        return _record_due(row, now, counts, min(budget, MAX_SLOTS_PER_TEMPLATE_RUN), run,
                           head, balance)
    finally:
        if run.recorded and not run.notified:
            _summary_after(row, run.recorded)


def _summary_after(row: RecurringExpense, recorded: List[Tuple[str, str]]) -> None:
    """The run's last slot was not recorded: sum the run up on the last one that was."""
    slot, expense_id = recorded[-1]
    tx = Transaction()
    _add_summary(tx, row, expense_id, slot, [s for s, _ in recorded[:-1]])
    try:
        tx.commit()
    except Exception:  # noqa: BLE001 — a lost summary loses a notification, never a row
        logger.exception("recurring.summary_failed",
                         extra={"recurringId": row.RecurringId, "slot": slot})


def _record_due(row: RecurringExpense, now: datetime, counts: Counter, budget: int,
                run: _Run, head: Optional[Group], balance: Optional[dict] = None) -> int:
    schedule = schedule_of(row)
    now_text, lease = iso(now), iso(now + LEASE)
    if head is not None and head.archived:
        counts["paused"] += 1  # an archived group is read-only: its templates wait
        return 0
    try:
        prev, slot = _resume_after_unarchive(row, schedule, head)
    except TemplateChanged:
        counts["skipped"] += 1
        return 0
    used = 0
    while slot and prev and prev <= now_text and used < budget:
        if not claim(row, prev, slot, lease):
            counts["skipped"] += 1
            return used
        used += 1
        following = schedule.after(date.fromisoformat(slot))
        next_run_at = schedule.run_at(following) if following else None
        # This run's last slot: the next one is not due yet, or the budget ends here.
        last = used == budget or not next_run_at or next_run_at > now_text
        try:
            expense_id = materialise(row, slot, lease, following, next_run_at,
                                     [s for s, _ in run.recorded] if last else None, head,
                                     balance)
            run.recorded.append((slot, expense_id))
            run.notified = last
            counts["created"] += 1
        except TemplateChanged:
            counts["skipped"] += 1  # deleted, or re-claimed after our lease lapsed
            return used
        except DomainError as error:
            if error.code == ConcurrentUpdate.code:  # contention that outlasted the retries
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
            already = isinstance(error, AlreadyRecorded) or error.code == DuplicateEvent.code
            if not release(row, slot, lease, following, next_run_at, head):
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


def _resume_after_unarchive(row: RecurringExpense, schedule: Schedule,
                            head: Optional[Group]) -> Tuple[Optional[str], Optional[str]]:
    """(NextRunAt, slot) to work from. The slots a template missed while its group was
    archived are not backfilled: one conditioned update moves it to its first slot on or
    after the (template's local) day of the last unarchive. A template created since keeps
    its own start (a start in the past backfills as usual)."""
    prev, slot = row.NextRunAt, row.ClaimedSlot or row.NextSlot
    unarchived = None if head is None else head.UnarchivedAt
    if not (unarchived and slot and prev and not row.ClaimedSlot
            and (row.CreatedAt or "") < unarchived):
        return prev, slot
    day = schedule.local_today(parse_instant(unarchived))
    if date.fromisoformat(slot) >= day:
        return prev, slot
    resume = schedule.on_or_after(day)
    next_run_at = schedule.run_at(resume) if resume else None
    tx = Transaction().update(
        RecurringExpense(row.GroupId, row.SK),
        [RecurringExpense.NextSlot.set(resume.isoformat()) if resume
         else RecurringExpense.NextSlot.remove()]
        + RecurringExpense.due_actions(row.GroupId, next_run_at),
        condition=(RecurringExpense.NextRunAt == prev)
        & (RecurringExpense.UpdatedAt == row.UpdatedAt),
        on_fail=template_changed_during_claim())
    changelog.record(tx, _logged_as(row, head), row)
    tx.commit()
    row.NextRunAt, row.NextSlot = next_run_at, resume.isoformat() if resume else None
    return next_run_at, row.NextSlot


def _held_by_transfer(group_id: str, error: DomainError) -> bool:
    """The occurrence failed because a participant it names is mid-transfer (not gone)."""
    if error.code != ParticipantUnavailable.code:
        return False
    try:
        participant = get_participant(group_id, (error.details or {}).get("participantId", ""))
    except NotFound:
        return False
    return bool(participant.TransferTarget)
