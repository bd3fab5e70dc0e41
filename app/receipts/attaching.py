"""Confirming a scan into an expense, attaching a READY receipt to one, and detaching.

Confirm creates the expense through the REST create itself (app.ledger.expenses);
the receipt's saved marker (ConfirmedExpenseId, never cleared) rides in that transaction,
so a replay can never create a second expense, even once the first was deleted: it hears
409 RECEIPT_CONFIRMED. An expense holds up to MAX_ATTACHMENTS receipts (photos or PDFs):
attach and detach move the expense's Attachments (and ReceiptId, the first) and the
receipt's AttachedExpenseId together, in one transaction that records the change (the
expense's version rises, so its ETag does too)."""
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
from app.receipts import extras, objects
from app.receipts.draft_input import Draft
from app.limits import MAX_ATTACHMENTS
from app.receipts.errors import (attachment_limit, receipt_attached, receipt_confirmed,
                                 receipt_not_ready, scan_not_done)
from app.receipts.uploads import load_receipt
from models.groups import Expense
from models.groups.ledger import PICTURE, AttachmentMap, attachments_of
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
    """The scan's draft (stored in its result as the draft body, its extras beside it), as
    the expense confirm creates (extras folded in), or None."""
    if receipt.ScanStatus != SCAN_DONE or not receipt.ScanResult:
        return None
    draft = json.loads(receipt.ScanResult).get("draft")
    if draft is None:
        return None
    return extras.folded(Draft(ExpenseInput.from_draft(draft),
                               extras.of_wire(draft.get("extras"))))


def confirm(access: Access, receipt_id: str, expense: Optional[Draft]) -> Expense:
    """Create the expense (``expense``, the edited draft, else the scan's draft) with the
    receipt attached; the draft's extras are shared over its items (app.receipts.extras)."""
    receipt = load_receipt(access.group_id, receipt_id)
    refusal = _refusal(receipt)
    if refusal is not None:
        raise refusal
    expense = extras.folded(expense) if expense is not None else draft_of(receipt)
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


def _attachments_change(tx: Transaction, access: Access, expense: Expense, before: list,
                        after: list) -> None:
    """The expense's attachments become ``after`` ((receiptId, contentType) pairs, the first
    its ReceiptId), under its version; the change is recorded (the version rises, so its
    ETag does too)."""
    version = int(expense.Version)
    first_before = before[0][0] if before else None
    first_after = after[0][0] if after else None
    actions = [Expense.Version.set(version + 1), Expense.UpdatedAt.set(now_iso()),
               Expense.UpdatedBy.set(access.user_id)]
    if after:
        actions += [Expense.ReceiptId.set(first_after), Expense.Attachments.set(
            [AttachmentMap(ReceiptId=rid, ContentType=kind) for rid, kind in after])]
    else:
        actions += [Expense.ReceiptId.remove(), Expense.Attachments.remove()]
    tx.update(Expense(access.group_id, expense.SK), actions,
              condition=Expense.Version == version,
              on_fail=money_guards.stale_version("Expense"))
    diff = [{"field": "attachments", "before": [rid for rid, _ in before],
             "after": [rid for rid, _ in after]}]
    if first_before != first_after:
        diff.insert(0, {"field": "receiptId", "before": first_before, "after": first_after})
    changelog.record(tx, access.group, expense, actor=access.participant_id, diff=diff)


def attach(access: Access, expense_id: str, receipt_id: str, *, first: bool = False) -> Expense:
    """Attach a READY receipt (MEMBER+): after the others, or ``first`` (PUT .../receipt);
    the same one again: as it is; a sixth: 409 ATTACHMENT_LIMIT."""
    expense = expenses.load_expense(access.group_id, expense_id)
    current = attachments_of(expense)
    if any(rid == receipt_id for rid, _ in current):
        return expense
    if len(current) >= MAX_ATTACHMENTS:
        raise attachment_limit(MAX_ATTACHMENTS)
    receipt = load_receipt(access.group_id, receipt_id)
    refusal = _refusal(receipt)
    if refusal is not None:
        raise refusal
    added = (receipt_id, receipt.ContentType or PICTURE)
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    money_guards.check_writer(tx, access)
    _attachments_change(tx, access, expense, current,
                        [added, *current] if first else [*current, added])
    tx.update(Receipt(*Receipt.key(access.group_id, receipt_id)),
              [Receipt.AttachedExpenseId.set(expense_id), Receipt.Version.add(1),
               Receipt.UpdatedAt.set(now_iso())],
              condition=FREE & (Receipt.Status == READY), on_fail=_judged)
    money_guards.commit(tx, access.group)
    return expenses.load_expense(access.group_id, expense_id)


def detach(access: Access, expense_id: str, receipt_id: Optional[str] = None) -> None:
    """Detach one of the expense's receipts (``receipt_id``, else its first) and delete it,
    row and objects (MEMBER+); the next becomes the first. Not attached here: 404."""
    expense = expenses.load_expense(access.group_id, expense_id)
    current = attachments_of(expense)
    receipt_id = receipt_id or (current[0][0] if current else None)
    if receipt_id is None or all(rid != receipt_id for rid, _ in current):
        raise not_found("Receipt")
    tx = Transaction()
    money_guards.check_group(tx, access.group)
    money_guards.check_writer(tx, access)
    _attachments_change(tx, access, expense, current,
                        [pair for pair in current if pair[0] != receipt_id])
    tx.delete(Receipt(*Receipt.key(access.group_id, receipt_id)))
    money_guards.commit(tx, access.group)
    objects.delete(access.group_id, receipt_id)
