"""Recurring expense templates and the due-bucket keys the hourly tick reads."""
from __future__ import annotations

import hashlib
from typing import Iterator, Optional

from pynamodb.attributes import BooleanAttribute, MapAttribute, NumberAttribute, UnicodeAttribute

from models.groups.base import GroupItem
from models.groups.keys import DUE_BUCKETS, DUE_BUCKET_PREFIX, RECURRING_PREFIX
from models.groups.ledger import ExpenseBodyAttributes


class ExpenseTemplateMap(ExpenseBodyAttributes, MapAttribute):
    """A template's expense body: the expense's own attributes (ExpenseBodyAttributes)."""


class RecurringExpense(GroupItem, discriminator="RECURRING_EXPENSE"):
    """A recurring template; DueBucket is set only while active, so paused rows leave the index.

    NextSlot is the next occurrence date (in TimeZone) and NextRunAt its local midnight in UTC.
    While a tick holds a slot, ClaimedSlot names it and NextRunAt is the claim's lease expiry,
    so a tick killed mid-slot leaves the row due again once the lease runs out."""

    RecurringId = UnicodeAttribute()
    Template = ExpenseTemplateMap()
    Currency = UnicodeAttribute(null=True)
    Frequency = UnicodeAttribute()
    Interval = NumberAttribute(default=1)
    StartDate = UnicodeAttribute()
    EndDate = UnicodeAttribute(null=True)
    Count = NumberAttribute(null=True)
    TimeZone = UnicodeAttribute(default="UTC")
    Paused = BooleanAttribute(default=False)
    NextSlot = UnicodeAttribute(null=True)
    ClaimedSlot = UnicodeAttribute(null=True)
    LastSlot = UnicodeAttribute(null=True)
    ReminderSlot = UnicodeAttribute(null=True)
    CreatedBy = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(recurring_id: str) -> str:
        return RECURRING_PREFIX + recurring_id

    @staticmethod
    def bucket_of(group_id: str) -> str:
        """The due-index partition of a group's templates (stable across processes)."""
        digest = hashlib.sha256(group_id.encode()).digest()
        return f"{DUE_BUCKET_PREFIX}{int.from_bytes(digest[:4], 'big') % DUE_BUCKETS}"

    @staticmethod
    def buckets() -> list:
        return [f"{DUE_BUCKET_PREFIX}{n}" for n in range(DUE_BUCKETS)]

    @classmethod
    def due_keys(cls, group_id: str, next_run_at: Optional[str]) -> dict:
        """Constructor attributes: in the due index at ``next_run_at``, or out of it (None)."""
        if next_run_at is None:
            return {"DueBucket": None, "NextRunAt": None}
        return {"DueBucket": cls.bucket_of(group_id), "NextRunAt": next_run_at}

    @classmethod
    def due_actions(cls, group_id: str, next_run_at: Optional[str]) -> list:
        """Update actions putting the row in the due index at ``next_run_at`` (None: out)."""
        if next_run_at is None:
            return [cls.DueBucket.remove(), cls.NextRunAt.remove()]
        return [cls.DueBucket.set(cls.bucket_of(group_id)), cls.NextRunAt.set(next_run_at)]

    @classmethod
    def due_page(cls, bucket: str, until: str, *, limit: int, start_key: Optional[dict] = None):
        """One bounded page of a bucket's rows with NextRunAt <= until, oldest first."""
        return cls.due_recurring.query(bucket, cls.NextRunAt <= until, limit=limit,
                                       last_evaluated_key=start_key)

    @classmethod
    def upcoming(cls, bucket: str, after: str, until: str, **kwargs) -> Iterator["RecurringExpense"]:
        """A bucket's rows whose next run falls in (after, until] (reminders)."""
        return cls.due_recurring.query(bucket, cls.NextRunAt.between(after + "\x00", until),
                                       **kwargs)
