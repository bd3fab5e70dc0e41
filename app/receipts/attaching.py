"""Confirming a scan into an expense, attaching a READY receipt to one, and detaching.

Confirm creates the expense through the REST create itself (app.ledger.expenses);
the receipt's saved marker (ConfirmedExpenseId, never cleared) rides in that transaction,
so a replay can never create a second expense, even once the first was deleted: it hears
409 RECEIPT_CONFIRMED. Attach and detach move the expense's ReceiptId and the receipt's
AttachedExpenseId together, in one transaction that records the change (the expense's
version rises, so its ETag does too)."""
from __future__ import annotations

import json
from typing import Optional

from app.errors import DomainError, not_found
from app.core import changelog
from app.core.access import Access
from app.core.clock import now_iso
from app.core.transactions import Transaction
from app.ledger import expenses, guards as money_guards
from app.ledger.expense_input import ExpenseInput
from app.receipts import objects
from app.receipts.errors import (expense_has_receipt, receipt_attached, receipt_confirmed,
                                 receipt_not_ready, scan_not_done)
from app.receipts.uploads import load_receipt
from models.groups import Expense
from models.groups.receipts import READY, SCAN_DONE, Receipt

FREE = Receipt.AttachedExpenseId.does_not_exist() & Receipt.ConfirmedExpenseId.does_not_exist()


def _refusal(receipt: Receipt) -> Optional[DomainError]:
    if receipt.ConfirmedExpenseId:
        return receipt_confirmed(receipt.ConfirmedExpenseId)
    if receipt.Status != READY:
        return receipt_not_ready(receipt.Status)
    if receipt.AttachedExpenseId:
        return receipt_attached(receipt.AttachedExpenseId)
    return None


def _judged(raw: Optional[dict]) -> DomainError:
    """Why the receipt's condition failed at commit, from the row as it was then."""
    if raw is None:
        return not_found("Receipt")
    return _refusal(Receipt.from_raw_data(raw)) or receipt_not_ready("changed")


def draft_of(receipt: Receipt) -> Optional[ExpenseInput]:
    """The scan's draft (stored in its result as the draft body), or None."""
    if receipt.ScanStatus != SCAN_DONE or not receipt.ScanResult:
        return None
    draft = json.loads(receipt.ScanResult).get("draft")
    return ExpenseInput.from_draft(draft) if draft is not None else None


def confirm(access: Access, receipt_id: str, expense: Optional[ExpenseInput]) -> Expense:
    """Create the expense (``expense``, else the scan's draft) with the receipt attached."""
    receipt = load_receipt(access.group_id, receipt_id)
    refusal = _refusal(receipt)
    if refusal is not None:
        raise refusal
    expense = expense if expense is not None else draft_of(receipt)
    if expense is None:
        raise scan_not_done()

    def saved_marker(tx: Transaction, row: Expense) -> None:
        row.ReceiptId = receipt_id  # the put is rendered at commit: the row carries it
        tx.update(Receipt(*Receipt.key(access.group_id, receipt_id)),
                  [Receipt.ConfirmedExpenseId.set(row.ExpenseId),
                   Receipt.AttachedExpenseId.set(row.ExpenseId),
                   Receipt.Version.add(1), Receipt.UpdatedAt.set(now_iso())],
                  condition=FREE & (Receipt.Status == READY), on_fail=_judged)

    return expenses.create_expense(access, expense, also=saved_marker)


def _receipt_change(tx: Transaction, access: Access, expense: Expense, before, after) -> None:
    version = int(expense.Version)
    action = Expense.ReceiptId.set(after) if after else Expense.ReceiptId.remove()
    tx.update(Expense(access.group_id, expense.SK),
              [action, Expense.Version.set(version + 1), Expense.UpdatedAt.set(now_iso()),
               Expense.UpdatedBy.set(access.user_id)],
              condition=Expense.Version == version,
              on_fail=money_guards.stale_version("Expense"))
    changelog.record(tx, access.group, expense, actor=access.participant_id,
                     diff=[{"field": "receiptId", "before": before, "after": after}])


def attach(access: Access, expense_id: str, receipt_id: str) -> Expense:
    """Attach a READY receipt (MEMBER+); the same one again: as it is."""
    expense = expenses.load_expense(access.group_id, expense_id)
    if expense.ReceiptId == receipt_id:
        return expense
    if expense.ReceiptId:
        raise expense_has_receipt(expense.ReceiptId)
    receipt = load_receipt(access.group_id, receipt_id)
    refusal = _refusal(receipt)
    if refusal is not None:
        raise refusal
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    money_guards.check_writer(tx, access)
    _receipt_change(tx, access, expense, None, receipt_id)
    tx.update(Receipt(*Receipt.key(access.group_id, receipt_id)),
              [Receipt.AttachedExpenseId.set(expense_id), Receipt.Version.add(1),
               Receipt.UpdatedAt.set(now_iso())],
              condition=FREE & (Receipt.Status == READY), on_fail=_judged)
    money_guards.commit(tx, access.group)
    return expenses.load_expense(access.group_id, expense_id)


def detach(access: Access, expense_id: str) -> None:
    """Detach the expense's receipt and delete it, row and objects (MEMBER+); none: 404."""
    expense = expenses.load_expense(access.group_id, expense_id)
    if not expense.ReceiptId:
        raise not_found("Receipt")
    receipt_id = expense.ReceiptId
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    money_guards.check_writer(tx, access)
    _receipt_change(tx, access, expense, receipt_id, None)
    tx.delete(Receipt(*Receipt.key(access.group_id, receipt_id)))
    money_guards.commit(tx, access.group)
    objects.delete(access.group_id, receipt_id)
