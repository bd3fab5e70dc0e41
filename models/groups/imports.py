"""Import rows: the status of one import and the staged chunks of its file.

Both live in the new group's partition. While the head is IMPORTING the group is unreadable
(app.core.access.is_live); the IMPORT row outlives a failed import so that
GET /imports/{importId} can say which line failed."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import ListAttribute, MapAttribute, NumberAttribute, UnicodeAttribute

from models.groups.base import GroupItem
from models.groups.keys import IMPORT, IMPORT_BUCKET, IMPORT_CHUNK_PREFIX

RUNNING, DONE, FAILED = "RUNNING", "DONE", "FAILED"


class ImportWarning(MapAttribute):
    Line = NumberAttribute(null=True)
    Message = UnicodeAttribute()


class ImportJob(GroupItem, discriminator="IMPORT"):
    """One import: who started it, what it read, how it ended."""

    ImportId = UnicodeAttribute()
    # Who started it, and the request's options (which hold their display name): both only
    # while it runs, so an ended import names nobody (the importer's pointer row, in their
    # own partition, is what says whose it is).
    ImporterUserId = UnicodeAttribute(null=True)
    Format = UnicodeAttribute()
    Status = UnicodeAttribute(default=RUNNING)
    # The request's choices: name, currency, me, convert (what the worker needs to redo it).
    Options = MapAttribute(null=True)
    Counts = MapAttribute(null=True)
    Warnings = ListAttribute(of=ImportWarning, null=True)
    WarningCount = NumberAttribute(null=True)
    ErrorLine = NumberAttribute(null=True)
    ErrorMessage = UnicodeAttribute(null=True)
    ChunkCount = NumberAttribute()
    # The run that holds the import (a worker's claim) and until when: a duplicate delivery
    # finds it held and leaves it; a crashed run's claim runs out and a redelivery takes over.
    RunToken = UnicodeAttribute(null=True)
    LeaseUntil = UnicodeAttribute(null=True)
    FinishedAt = UnicodeAttribute(null=True)

    @staticmethod
    def key(group_id: str) -> tuple:
        return group_id, IMPORT

    @classmethod
    def overdue(cls, until: str, **kwargs) -> Iterator["ImportJob"]:
        """RUNNING imports no run can still finish (DueRecurringExpensesIndex, their bucket)."""
        return cls.due_recurring.query(IMPORT_BUCKET, cls.NextRunAt <= until, **kwargs)


class ImportChunk(GroupItem, discriminator="IMPORT_CHUNK"):
    """A slice of the staged file, zlib-compressed then base64 (a row holds at most 400 KB)."""

    Data = UnicodeAttribute()

    @staticmethod
    def sort_key(seq: int) -> str:
        return f"{IMPORT_CHUNK_PREFIX}{seq:04d}"

    @classmethod
    def of(cls, group_id: str, **kwargs) -> Iterator["ImportChunk"]:
        return cls.query(group_id, cls.SK.startswith(IMPORT_CHUNK_PREFIX), **kwargs)
