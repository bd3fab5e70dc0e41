"""Delete an expense with its whole comment thread: crash-safe and rerunnable.

Comments go first, the head last. A thread small enough rides in one TransactWrite with
the head delete, the balance delta and EXPENSE_DELETED (atomic). A longer one is
batch-deleted page by page (idempotent, unconditional deletes; UnprocessedItems retried to
empty) until what is left fits that final transaction. A crash part-way leaves a live head
with fewer comments and balances that still count it, never a deleted head with wrong
balances; running the delete again finishes the job.

The final transaction conditions on the head's Version (the balance delta is computed from
the version read) and on its comment counter (bumped by every comment add), so neither an
edit nor a comment arriving mid-delete can be lost: the attempt starts over instead."""
from __future__ import annotations

from typing import List, Optional


from app.errors import Conflict, not_found, concurrent_update
from app.core import scrub, cascades, changelog, outbox
from app.ledger.errors import database_busy
from app.ledger import balances, guards as money_guards, rounding
from app.ledger.expense_body import ExpenseBody
from app.core.access import Access
from app.ledger.comments import comments_prefix
from app.core.transactions import MAX_ITEMS, Transaction
from models.base import UnprocessedItemsLeft
from models.groups import Expense, GroupItem

# The final transaction also holds the head delete, the balance update, the event and the
# checks that the caller is still a member and their account live (check_writer: two items),
# and the change row with the head's revision bump (app.core.changelog: two items),
# and the attached receipt's row (app.core.cascades.expense_deleting).
FINAL_COMMENTS = MAX_ITEMS - 8
SWEEP_PAGE = 500
_ATTEMPTS = 5


class _Raced(Conflict):
    """The head changed (an edit or a new comment) after we read it: start over."""


def _read_head(group_id: str, expense_id: str) -> tuple:
    """(Expense, comment counter) of the live head, strongly consistent, or NotFound."""
    raw = GroupItem.raw_get(group_id, Expense.sort_key(expense_id))
    if not raw:
        raise not_found("Expense")
    head = GroupItem.from_raw_data(raw)
    if not isinstance(head, Expense):
        raise not_found("Expense")
    return head, None if head.CommentSeq is None else int(head.CommentSeq)


def _comment_keys(group_id: str, expense_id: str) -> tuple:
    """Up to SWEEP_PAGE comment keys from the start of the thread, and whether more remain."""
    keys, last = GroupItem.raw_page(group_id, keys_only=True, page_size=SWEEP_PAGE,
                                    range_key_condition=GroupItem.SK.startswith(
                                        comments_prefix(expense_id)))
    return keys, last is not None


def batch_delete(keys: List[dict]) -> None:
    """Unconditional deletes (a rerun is a no-op), UnprocessedItems retried until empty."""
    try:
        GroupItem.raw_batch_delete(keys)
    except UnprocessedItemsLeft:
        raise database_busy() from None


def _sweep(group_id: str, expense_id: str) -> List[dict]:
    """Batch-delete comments until the rest fit the final transaction; returns the rest."""
    while True:
        keys, more = _comment_keys(group_id, expense_id)
        if not more and len(keys) <= FINAL_COMMENTS:
            return keys
        batch_delete(keys)


def _final(access: Access, head: Expense, counter: Optional[int], rest: List[dict],
           fair: Optional[rounding.FairState] = None) -> None:
    tx = Transaction()
    money_guards.check_writer(tx, access)
    for key in rest:
        tx.delete(GroupItem(*key))
    seen_counter = (Expense.CommentSeq.does_not_exist() if counter is None
                    else Expense.CommentSeq == counter)
    tx.delete(head, condition=(Expense.Version == int(head.Version)) & seen_counter,
              on_fail=_Raced("The expense changed while it was being deleted."))
    main = access.group.Currency
    fair_update = {} if fair is None else {
        "also": rounding.actions(fair.stored, rounding.combined(
            fair.stored, rounding.body_rounding(ExpenseBody.from_row(head), main),
            signs=(1, -1))),
        "condition": fair.condition(), "on_fail": fair.moved()}
    balances.add_to_balance(tx, access.group_id,
                            balances.deltas(balances.expense_nets(head, main), {}), expenses=-1,
                            pairs=balances.deltas(balances.expense_pairs(head, main), {}),
                            **fair_update)
    outbox.add_event(tx, "EXPENSE_DELETED", scope_id=access.group_id,
                     resource_id=head.ExpenseId, revision=int(head.Version),
                     actor_user_id=access.user_id, group_id=access.group_id,
                     payload={"description": head.Description, "amount": int(head.Amount)})
    changelog.record(tx, access.group, head, changelog.DELETE, actor=access.participant_id)
    cascades.expense_deleting(tx, head)
    tx.commit()
    cascades.expense_deleted(head)


def delete_expense(access: Access, expense_id: str) -> None:
    """Delete the head and every comment; the balance loses the expense atomically with the head."""
    for _ in range(_ATTEMPTS):
        head, counter = _read_head(access.group_id, expense_id)
        rest = _sweep(access.group_id, expense_id)
        try:
            _final(access, head, counter, rest, rounding.read_state(access.group))
            # After the commit: /activity stops quoting it (app.core.scrub).
            scrub.scrub_resource(access.group_id, "EXPENSE", expense_id)
            return
        except (_Raced, rounding.RoundingMoved):
            continue
    raise concurrent_update("The expense keeps changing; try the delete again.")
