"""Maintenance: delete comment rows whose expense head is gone (the seed's defence in depth).

The delete cascade removes comments before the head and a comment is only added while its
head exists, so orphans need a bug or a hand edit; no index lists comments by head, so this
walks the table a few pages per run (core.sweeps), checks the heads of what it found with one
BatchGetItem per page and deletes only comments whose head is missing. A missing head never
comes back (expense ids are never reused), so the check cannot race a live thread."""
from __future__ import annotations

from app.core.sweeps import scan_pages
from models.groups import COMMENT_SEGMENT, EXPENSE_PREFIX, Comment, Expense, GroupItem

SWEEP = "orphan-comments"


def _head_key(group_id: str, sort_key: str) -> tuple:
    expense_id = sort_key[len(EXPENSE_PREFIX):sort_key.index(COMMENT_SEGMENT)]
    return group_id, Expense.sort_key(expense_id)


def sweep_orphan_comments(*, max_pages: int = 5, page_size: int = 500) -> dict:
    checked = deleted = 0
    for items in scan_pages(GroupItem, SWEEP, filter_condition=GroupItem.EntityType == Comment,
                            attributes=["GroupId", "SK"], page_size=page_size,
                            max_pages=max_pages):
        comments = [(item["GroupId"]["S"], item["SK"]["S"]) for item in items
                    if COMMENT_SEGMENT in item["SK"]["S"]]
        checked += len(comments)
        heads = GroupItem.raw_batch_get({_head_key(*key) for key in comments})
        orphans = [key for key in comments if _head_key(*key) not in heads]
        GroupItem.raw_batch_delete(orphans)
        deleted += len(orphans)
    return {"commentsChecked": checked, "orphanCommentsDeleted": deleted}
