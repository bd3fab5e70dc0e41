"""The hourly tick: materialise due recurring expenses and create reminders, bucket by bucket.

DueBucket is sharded by a hash of GroupId (models.groups.DUE_BUCKETS). Deployed, the tick
only fans out one SQS message per bucket (``fanout``) and a worker runs :func:`run_bucket`;
locally (no queue configured) the same :func:`run_bucket` runs for every bucket in-process.

Per bucket: read a bounded snapshot of the due rows (a few pages) before mutating any of
them — claims move rows within the index being paged, which could skip or revisit rows —
process it serially, and repeat until nothing is due or the per-run bound is reached. Each
template is worked once per run, for at most occurrences.MAX_SLOTS_PER_TEMPLATE_RUN slots.

Each occurrence changes its group, so its TransactWrite updates the head's Revision and
numbers its CHANGE rows from the one expected (app.core.changelog). The heads are
read as the run reaches their templates, one BatchGetItem per 100 templates (a GetItem per
slot otherwise): read just before use, a head is rarely stale, and one that another writer
moved meanwhile is renumbered by the commit, so the log's guarantees do not rest on it. The
same BatchGetItem reads each group's balance row, which an occurrence's balance delta is
encoded against (models.groups.balance_row: the seats it names) and which each commit
leaves its seats in; a row that moved meanwhile costs a resend, never a wrong sum.
"""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta, timezone
from typing import Dict, Iterator, List, Optional, Tuple

from aws_lambda_powertools import Metrics
from aws_lambda_powertools.metrics import MetricUnit

from app.errors import Conflict
from app.logs import logger
from app.core import outbox
from app.core.transactions import Transaction
from app.recurring import fanout
from app.recurring.occurrences import run_slots
from app.recurring.schedule import iso, parse_instant
from models.base import BATCH_GET_LIMIT
from models.groups import BALANCE, Balance, Group, RecurringExpense

SNAPSHOT_PAGE = 100
SNAPSHOT_PAGES = 5
# Slots one bucket run records at most (~10 minutes at the modelled 59 ms each); the rest
# wait for the next tick, oldest first.
MAX_SLOTS_PER_RUN = 10_000
REMINDER_AHEAD = timedelta(hours=24)
COUNTS = ("due", "created", "failed", "skipped", "deferred", "rolledBack", "reminders",
          "paused")
metrics = Metrics(namespace="TailSpend", service="recurring")


def resolve_now(now: Optional[str]) -> datetime:
    return parse_instant(now) if now else datetime.now(timezone.utc)


def _snapshot(bucket: str, until: str,
              start: Optional[dict] = None) -> Tuple[List[RecurringExpense], Optional[dict]]:
    """(rows, resume): at most SNAPSHOT_PAGES pages of due rows from ``start``, read in full
    before any is changed; ``resume`` is where the bound cut the due set short (None: read
    to the end)."""
    rows: List[RecurringExpense] = []
    for _ in range(SNAPSHOT_PAGES):
        page = RecurringExpense.due_page(bucket, until, limit=SNAPSHOT_PAGE, start_key=start)
        rows.extend(page)
        start = page.last_evaluated_key
        if not start:
            return rows, None
    return rows, start


def _with_heads(rows: List[RecurringExpense]) -> Iterator[Tuple[RecurringExpense,
                                                               Optional[Group], dict]]:
    """Each row with its group's head (None if absent) and its balance row as held
    (``{BALANCE: raw}``), read strongly consistent for the next BATCH_GET_LIMIT / 2 rows
    when the run reaches them (a run cut short reads no more). A group's templates share
    one head, which each commit tells its new Revision, and one held balance row, which each
    commit leaves its seats in."""
    for start in range(0, len(rows), BATCH_GET_LIMIT // 2):
        chunk = rows[start:start + BATCH_GET_LIMIT // 2]
        groups = list(dict.fromkeys(row.GroupId for row in chunk))
        found = Group.raw_batch_get([key for gid in groups
                                     for key in (Group.key(gid), Balance.key(gid))],
                                    consistent_read=True)
        heads: Dict[str, Optional[Group]] = {gid: Group.from_raw(found.get(Group.key(gid)))
                                             for gid in groups}
        balances = {gid: {BALANCE: found.get(Balance.key(gid))} for gid in groups}
        for row in chunk:
            yield row, heads[row.GroupId], balances[row.GroupId]


def run_bucket(bucket: str, now: Optional[str] = None, *,
               max_slots: int = MAX_SLOTS_PER_RUN) -> dict:
    """Record the due slots of one bucket (bounded), then its reminders; returns counts.

    Each template is worked once per run, until it is no longer due or its per-run cap is
    reached, so a snapshot the page bound cut short is followed by the next one from where
    it stopped (only rows this run worked move in the index, and those are not worked
    again). A transient failure re-raises after rolling its slot back, so the bucket is
    retried."""
    moment = resolve_now(now)
    until = iso(moment)
    counts: Counter = Counter(dict.fromkeys(COUNTS, 0))
    budget = max_slots
    worked: set = set()
    try:
        resume: Optional[dict] = None
        while budget > 0:
            snapshot, resume = _snapshot(bucket, until, resume)
            snapshot = [row for row in snapshot if (row.GroupId, row.SK) not in worked]
            counts["due"] += len(snapshot)
            for row, head, balance in _with_heads(snapshot):
                worked.add((row.GroupId, row.SK))
                budget -= run_slots(row, moment, counts, budget, head, balance)
                if budget <= 0:
                    logger.warning("recurring.run_bound_reached",
                                   extra={"bucket": bucket, "bound": max_slots})
                    break
            if resume is None:
                break
        counts["reminders"] = create_reminders(bucket, moment)
    finally:
        # Nested: "created" and friends are reserved LogRecord attribute names.
        logger.info("recurring.bucket_done",
                    extra={"bucket": bucket, "now": until, "counts": dict(counts)})
    return dict(counts)


def create_reminders(bucket: str, moment: datetime) -> int:
    """One RECURRING_REMINDER per upcoming slot (next 24 h), created once by its event id."""
    created = 0
    for row in RecurringExpense.upcoming(bucket, iso(moment), iso(moment + REMINDER_AHEAD)):
        slot = row.NextSlot
        if not slot or row.ClaimedSlot or row.ReminderSlot == slot:
            continue
        tx = Transaction().without_change("ReminderSlot is bookkeeping no read shows")
        outbox.add_event(tx, "RECURRING_REMINDER", scope_id=row.GroupId,
                         resource_id=row.RecurringId, revision=slot, actor_user_id="recurring",
                         group_id=row.GroupId,
                         payload={"recurringId": row.RecurringId, "slot": slot,
                                  "description": row.Template.Description})
        # An archived group's templates wait (occurrences.py): no reminder of a slot that
        # will not run.
        tx.check(Group, *Group.key(row.GroupId), condition=Group.ArchivedAt.does_not_exist(),
                 on_fail=Conflict("The group is archived."))
        tx.update(RecurringExpense(row.GroupId, row.SK),
                  [RecurringExpense.ReminderSlot.set(slot)],
                  condition=(RecurringExpense.NextSlot == slot)
                  & (RecurringExpense.ReminderSlot.does_not_exist()
                     | (RecurringExpense.ReminderSlot != slot)))
        try:
            tx.commit()
            created += 1
        except Conflict:
            # already reminded (by ReminderSlot: the event row leaves at dispatch), the
            # template moved meanwhile, or its group is archived
            pass
    return created


def _report(counts: dict, **extra) -> None:
    logger.info("hourly_tick", extra={"counts": dict(counts), **extra})
    for name in COUNTS:
        metrics.add_metric(name=f"Recurring_{name}", unit=MetricUnit.Count,
                           value=counts.get(name, 0))
    metrics.flush_metrics()


def run_tick(now: Optional[str] = None) -> dict:
    """The HourlyTick: fan the buckets out (deployed) or run them all here (local mode)."""
    moment = iso(resolve_now(now))
    buckets = RecurringExpense.buckets()
    if fanout.enabled():
        sent = fanout.send(buckets, moment)
        result = {"now": moment, "bucketsSent": sent}
        logger.info("hourly_tick.fanned_out", extra=result)
        return result
    totals: Counter = Counter(dict.fromkeys(COUNTS, 0))
    failures = []
    for bucket in buckets:
        try:
            totals.update(run_bucket(bucket, moment))
        except Exception as error:  # noqa: BLE001 — the other buckets still run
            logger.exception("recurring.bucket_failed", extra={"bucket": bucket})
            failures.append(error)
    result = {"now": moment, **totals, "bucketsFailed": len(failures)}
    _report(result)
    if failures:
        raise failures[0]
    return result


def run_bucket_message(bucket: str, now: str) -> None:
    """The bucket worker's one message: run the bucket as of the tick's ``now``. A failure is
    logged with its bucket and raised, so only this bucket's message is redelivered."""
    try:
        _report(run_bucket(bucket, now), bucket=bucket)
    except Exception:
        logger.exception("recurring.bucket_failed", extra={"bucket": bucket})
        raise
