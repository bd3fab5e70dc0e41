"""Expenses: create, read (with the comment thread), list, look up by id, edit.

Every write is one TransactWrite holding the expense row, the BALANCE#v1 delta, the outbox
event and ConditionChecks on the group head, the caller's membership and every referenced
participant."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, List, Optional

from app import metrics
from app.errors import (Invalid, NotFound, ParticipantUnavailable, concurrent_update,
                        id_collision, not_found, version_conflict)
from app.core import changelog, outbox, paging
from app.ledger import balances, default_split, expense_build, guards as money_guards, rounding
from app.ledger.expense_input import ExpenseInput
from app.core.access import Access, authorize
from app.core.clock import new_id, now_iso, today
from app.core.transactions import Transaction
from app.ledger.expense_body import ExpenseBody, compared
from models.groups import COMMENT_SEGMENT, Comment, Expense, Group, GroupItem

# Comments returned inline with an expense; longer threads continue via the comments list.
INLINE_COMMENTS = 100


@dataclass(frozen=True)
class ExpenseThread:
    """An expense with the first page of its comments (the reply of a single-expense read).

    Attribute reads fall through to the expense, so the expense's reply schema dumps it."""

    expense: Expense
    comments: List[Comment]
    comments_next_cursor: Optional[str]

    def __getattr__(self, name: str):
        return getattr(self.expense, name)


def _guarded_transaction(access: Access, draft: expense_build.Draft) -> Transaction:
    tx = Transaction()
    money_guards.check_money_write(tx, access, draft.participant_ids)
    return tx


def _head_checked_transaction(access: Access) -> Transaction:
    """The guards of an edit that moves no money: the group and the writer's role only."""
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    money_guards.check_writer(tx, access)
    return tx


def create_expense(access: Access, expense: ExpenseInput, *,
                   recurring_id: Optional[str] = None,
                   recurring_slot: Optional[str] = None,
                   also: Optional[Callable[[Transaction, Expense], None]] = None) -> Expense:
    """Record an expense (version 1) with its balance delta and EXPENSE_ADDED atomically.

    ``expense`` is the door's ExpenseInput; no date means today.

    ``also(tx, expense)`` adds the caller's own rows to the same transaction (a chat
    draft's saved marker), so they commit with the expense or not at all."""
    expense = expense if expense.date else expense.with_(date=today())
    if not default_split.names_nobody(expense):
        return _create_retrying(access, expense, recurring_id, recurring_slot, also)
    for _ in range(DEFAULT_ATTEMPTS):
        try:
            return _create_retrying(access, default_split.applied(access.group.DefaultSplit,
                                                                  expense),
                                    recurring_id, recurring_slot, also)
        except ParticipantUnavailable:
            # Someone the default named left after the head was read: their removal
            # rewrote the default in its own TransactWrite, so the head read now has it.
            head = _default_moved(access.group)
            if head is None:
                raise
            access = replace(access, group=head)
    raise concurrent_update("The group's default split keeps changing; try again.")


# Creates that name nobody, built anew when the default split moved under them.
DEFAULT_ATTEMPTS = 3


def _default_moved(group: Group) -> Optional[Group]:
    """The head again when its default split differs from ``group``'s, else None."""
    try:
        head = Group.get(*Group.key(group.GroupId), consistent_read=True)
    except Group.DoesNotExist:
        return None
    return None if default_split.same(head.DefaultSplit, group.DefaultSplit) else head


def _create_retrying(access: Access, expense: ExpenseInput, recurring_id: Optional[str],
                     recurring_slot: Optional[str],
                     also: Optional[Callable[[Transaction, Expense], None]]) -> Expense:
    for _ in range(rounding.ATTEMPTS):
        try:
            return _create(access, expense, rounding.read_state(access.group), recurring_id,
                           recurring_slot, also)
        except rounding.RoundingMoved:
            continue
    raise concurrent_update("The balances keep changing; try again.")


def _create(access: Access, expense: ExpenseInput, fair: Optional[rounding.FairState],
            recurring_id: Optional[str], recurring_slot: Optional[str],
            also: Optional[Callable[[Transaction, Expense], None]]) -> Expense:
    main = access.group.Currency
    draft = expense_build.build(
        expense, main, fair=fair and fair.for_currency(expense.currency, main))
    expense_id, now = new_id(), now_iso()
    row = Expense(access.group_id, Expense.sort_key(expense_id), ExpenseId=expense_id,
                  **Expense.date_keys(draft.date, now, expense_id),
                  Date=draft.date,
                  **draft.body.to_row_attributes(), Version=1, CreatedBy=access.user_id,
                  UpdatedBy=access.user_id, CreatedAt=now, UpdatedAt=now,
                  RecurringId=recurring_id, RecurringSlot=recurring_slot)
    tx = _guarded_transaction(access, draft)
    tx.put(row, condition=Expense.SK.does_not_exist(),
           on_fail=id_collision())
    balances.add_to_balance(tx, access.group_id, balances.deltas({}, draft.nets), expenses=1,
                            pairs=balances.body_pairs(draft.body, main),
                            **_rounding_update(access, fair, {}, draft.body, main))
    outbox.add_event(tx, "EXPENSE_ADDED", scope_id=access.group_id, resource_id=expense_id,
                     revision=1, actor_user_id=access.user_id, group_id=access.group_id,
                     payload={"description": draft.description, "amount": draft.amount})
    changelog.record(tx, access.group, row, changelog.CREATE, actor=access.participant_id)
    if also is not None:
        also(tx, row)
    money_guards.commit(tx, access.group)
    metrics.count(metrics.EXPENSES_WRITTEN)
    return row


def _rounding_update(access: Access, fair: Optional[rounding.FairState], taken_out: dict,
                     body: Any, main: str) -> dict:
    """add_to_balance's row, and the arguments writing a FAIR group's new r (none for
    LIST_ORDER): ``taken_out`` is the old body's contribution, ``body`` the new one (or
    None)."""
    if fair is None:
        return balances.against(access)
    after = rounding.combined(fair.stored, taken_out,
                              {} if body is None else rounding.body_rounding(body, main),
                              signs=(1, -1, 1))
    return fair.update(after)


def load_expense(group_id: str, expense_id: str) -> Expense:
    """The expense head (strongly consistent), or NotFound."""
    try:
        return Expense.get(group_id, Expense.sort_key(expense_id), consistent_read=True)
    except (Expense.DoesNotExist, ValueError):
        raise not_found("Expense") from None


def update_expense(access: Access, expense_id: str, version: int,
                   patch: ExpenseInput) -> Expense:
    """Apply a full or partial edit to the version read; a stale version is VERSION_CONFLICT."""
    for _ in range(rounding.ATTEMPTS):
        try:
            return _update(access, expense_id, version, patch,
                           rounding.read_state(access.group))
        except rounding.RoundingMoved:
            continue
    raise concurrent_update("The balances keep changing; try again.")


def _update(access: Access, expense_id: str, version: int, patch: ExpenseInput,
            fair: Optional[rounding.FairState]) -> Expense:
    current = load_expense(access.group_id, expense_id)
    if int(current.Version) != version:
        raise version_conflict("expense", int(current.Version))
    main = access.group.Currency
    stored_body = ExpenseBody.from_row(current)
    merged = expense_build.merge(stored_body, current.Date, patch)
    old_rounding = {} if fair is None else rounding.body_rounding(stored_body, main)
    base = None if fair is None else rounding.FairState(
        fair.revision, rounding.combined(fair.stored, old_rounding, signs=(1, -1)))
    draft = expense_build.build(merged, main,
                                fair=base and base.for_currency(merged.currency, main),
                                keep=stored_body.items if fair is not None else ())
    now, new_version = now_iso(), version + 1
    changes = {**draft.body.to_row_attributes(), "Date": draft.date, "Version": new_version,
               "UpdatedAt": now, "UpdatedBy": access.user_id,
               # The seed's "delete-and-recreate" for a new date, in the only safe form: the
               # SK (which the comments hang off) never changes, and only the GSI key is
               # recomputed inside this version-guarded update. A delete and a put of the
               # same key cannot share one transaction, and re-keying the SK would orphan
               # every comment of the thread.
               **Expense.date_keys(draft.date, current.CreatedAt, expense_id)}
    actions = [getattr(Expense, name).set(value) if value is not None
               else getattr(Expense, name).remove() for name, value in changes.items()]
    delta = balances.deltas(balances.expense_nets(current, access.group.Currency), draft.nets)
    # An edit that moves no money and names no one new (a description, a category, a date)
    # needs no balance delta and no participant checks: every participant it names is
    # already referenced by this expense, so none can have been removed meanwhile. That
    # takes such an edit from ~25 write units to ~9.
    moves_money = (bool(delta) or fair is not None
                   or not draft.participant_ids <= balances.expense_participants(current))
    tx = _guarded_transaction(access, draft) if moves_money else _head_checked_transaction(access)
    tx.update(Expense(access.group_id, Expense.sort_key(expense_id)), actions,
              condition=Expense.Version == version, on_fail=money_guards.stale_version("Expense"))
    if moves_money:
        balances.add_to_balance(tx, access.group_id, delta, pairs=balances.deltas(
            balances.expense_pairs(current, main), balances.body_pairs(draft.body, main)),
            **_rounding_update(access, fair, old_rounding, draft.body, main))
    outbox.add_event(tx, "EXPENSE_UPDATED", scope_id=access.group_id, resource_id=expense_id,
                     revision=new_version, actor_user_id=access.user_id,
                     group_id=access.group_id,
                     payload={"description": draft.description, "amount": draft.amount})
    changelog.record(tx, access.group, current, actor=access.participant_id,
                   diff=changelog.diff_of(compared(current, date=current.Date),
                                        compared(draft.body, date=draft.date)),
                   subject={"name": draft.description, "amount": draft.amount,
                            "currency": current.Currency})
    money_guards.commit(tx, access.group)
    metrics.count(metrics.EXPENSES_WRITTEN)
    # The write succeeded on exactly the version read, so the new row is known: no re-read.
    for name, value in changes.items():
        setattr(current, name, value)
    return current


def thread_page(group_id: str, expense_id: str, *, limit: int,
                start_key: Optional[dict] = None):
    """One Query over ``EXPENSE#<eid>#``: the head first, then comments oldest first."""
    return GroupItem.query(group_id, GroupItem.SK.startswith(Expense.thread_prefix(expense_id)),
                           limit=limit, last_evaluated_key=start_key, consistent_read=True)


def comments_scope(group_id: str, expense_id: str) -> str:
    """The cursor scope name of one expense's comment list."""
    return f"comments:{group_id}:{expense_id}"


def get_expense(access: Access, expense_id: str, *, comments_cursor_scope: str) -> ExpenseThread:
    """The expense and its first comments from one Query; a longer thread gets a cursor.

    ``comments_cursor_scope`` binds that cursor to the comments list of this expense."""
    rows = thread_page(access.group_id, expense_id, limit=INLINE_COMMENTS + 1)
    head, comments = None, []
    for row in rows:
        if isinstance(row, Expense):
            head = row
        elif isinstance(row, Comment):
            comments.append(row)
    if head is None:
        raise not_found("Expense")
    next_key = rows.last_evaluated_key
    more = next_key is not None and COMMENT_SEGMENT in next_key["SK"]["S"]
    return ExpenseThread(head, comments,
                         paging.encode(next_key, comments_cursor_scope) if more else None)


def list_expenses(access: Access, *, date_from: Optional[str], date_to: Optional[str],
                  limit: Optional[int], cursor: Optional[str], scope: str) -> dict:
    """Newest first by date then creation, via GroupExpensesIndex; from/to are inclusive."""
    if date_from and date_to and date_from > date_to:
        raise Invalid("from must not be after to.", details={"from": ["Must not be after to."]})
    rows = Expense.listing(access.group_id, date_from, date_to, limit=paging.clamp_limit(limit),
                           last_evaluated_key=paging.decode(cursor, scope))
    return paging.page_of(rows, scope).as_dict()


def locate_for(user_id: str, expense_id: str) -> Access:
    """The caller's access to the group holding an expense; 404 if absent or not a member."""
    found = Expense.locate(expense_id)
    if found is None:
        raise not_found("Expense")
    try:
        return authorize(user_id, found[0])
    except NotFound:
        raise not_found("Expense") from None
