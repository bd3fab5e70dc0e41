"""Maintenance: delete comment rows whose expense is gone for good, head and trash row.

A deleted expense keeps its comments while it is in the trash (app.ledger.trash), so they
come back with a restore; once its trash row is purged they are orphans, and so is a
comment a bug or a hand edit left. No index lists comments by head, so this walks the table
a few pages per run (core.sweeps), checks the heads and trash rows of what it found with one
BatchGetItem per page and deletes only comments with neither. An expense with neither never
comes back (ids are never reused, a purged trash row is gone); a restore writes its head
and deletes its trash row in one transaction, so one of the two is always there to read."""
from __future__ import annotations

from app.core.sweeps import scan_pages
from models.groups import COMMENT_SEGMENT, EXPENSE_PREFIX, Comment, Expense, GroupItem, Trashed

SWEEP = "orphan-comments"


def _expense_id(sort_key: str) -> str:
    return sort_key[len(EXPENSE_PREFIX):sort_key.index(COMMENT_SEGMENT)]


def _head_key(group_id: str, sort_key: str) -> tuple:
    return group_id, Expense.sort_key(_expense_id(sort_key))


def _trash_key(group_id: str, sort_key: str) -> tuple:
    return group_id, Trashed.sort_key(_expense_id(sort_key))


def sweep_orphan_comments(*, max_pages: int = 5, page_size: int = 500) -> dict:
    checked = deleted = 0
    for items in scan_pages(GroupItem, SWEEP, filter_condition=GroupItem.EntityType == Comment,
                            attributes=["GroupId", "SK"], page_size=page_size,
                            max_pages=max_pages):
        comments = [(item["GroupId"]["S"], item["SK"]["S"]) for item in items
                    if COMMENT_SEGMENT in item["SK"]["S"]]
        checked += len(comments)
        held = GroupItem.raw_batch_get({_head_key(*key) for key in comments}
                                       | {_trash_key(*key) for key in comments})
        orphans = [key for key in comments
                   if _head_key(*key) not in held and _trash_key(*key) not in held]
        GroupItem.raw_batch_delete(orphans)
        deleted += len(orphans)
    return {"commentsChecked": checked, "orphanCommentsDeleted": deleted}
