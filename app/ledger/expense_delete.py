"""Delete an expense: into the trash for 30 days (app.ledger.trash), its balance effect
removed in the same TransactWrite.

One TransactWrite deletes the head, writes its trash row, takes its nets off BALANCE#v1 and
adds EXPENSE_DELETED and the change row. Its comments stay under the expense's sort-key
prefix (unread while the head is gone) so a restore brings them back; its receipt's row and
objects stay too, until the trash row is purged (app.ledger.orphan_comments sweeps the
comments then; the receipts area's cleanup, the objects).

The transaction conditions on the head's Version (the balance delta and the trash's image
are made from the version read), so an edit arriving mid-delete starts the attempt over. A
comment arriving mid-delete cannot be lost either way: it lands while the head stands (and
stays with the others for a restore) or is refused once it is gone, so the delete does not
condition on the comment counter and never loses to a busy thread."""
from __future__ import annotations

from typing import Optional

from app.errors import Conflict, not_found, concurrent_update
from app.core import scrub, changelog, outbox
from app.ledger import balances, guards as money_guards, rounding, trash
from app.ledger.expense_body import ExpenseBody
from app.core.access import Access
from app.core.transactions import Transaction
from models.groups import Expense, GroupItem

_ATTEMPTS = 5


class _Raced(Conflict):
    """The head was edited after we read it: start over."""


def _read_head(group_id: str, expense_id: str) -> tuple:
    """(Expense, comment counter) of the live head, strongly consistent, or NotFound."""
    raw = GroupItem.raw_get(group_id, Expense.sort_key(expense_id))
    if not raw:
        raise not_found("Expense")
    head = GroupItem.from_raw_data(raw)
    if not isinstance(head, Expense):
        raise not_found("Expense")
    return head, None if head.CommentSeq is None else int(head.CommentSeq)


def _final(access: Access, head: Expense, counter: Optional[int],
           fair: Optional[rounding.FairState] = None) -> None:
    tx = Transaction()
    money_guards.check_writer(tx, access)
    tx.delete(head, condition=Expense.Version == int(head.Version),
              on_fail=_Raced("The expense changed while it was being deleted."))
    main = access.group.Currency
    fair_update = balances.against(access) if fair is None else fair.update(
        rounding.combined(fair.stored, rounding.body_rounding(ExpenseBody.from_row(head), main),
                          signs=(1, -1)))
    trash.put_in_trash(tx, access, head)
    balances.add_to_balance(tx, access.group_id,
                            balances.deltas(balances.expense_nets(head, main), {}), expenses=-1,
                            pairs=balances.deltas(balances.expense_pairs(head, main), {}),
                            **fair_update)
    outbox.add_event(tx, "EXPENSE_DELETED", scope_id=access.group_id,
                     resource_id=head.ExpenseId, revision=int(head.Version),
                     actor_user_id=access.user_id, group_id=access.group_id,
                     payload={"description": head.Description, "amount": int(head.Amount)})
    changelog.record(tx, access.group, head, changelog.DELETE, actor=access.participant_id)
    tx.commit()


def delete_expense(access: Access, expense_id: str) -> None:
    """Move the expense to the trash; the balance loses it atomically with the head."""
    for _ in range(_ATTEMPTS):
        head, counter = _read_head(access.group_id, expense_id)
        try:
            _final(access, head, counter, rounding.read_state(access.group))
            # After the commit: /activity stops quoting it (app.core.scrub).
            scrub.scrub_resource(access.group_id, "EXPENSE", expense_id)
            return
        except (_Raced, rounding.RoundingMoved):
            continue
    raise concurrent_update("The expense keeps changing; try the delete again.")
