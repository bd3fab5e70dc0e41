"""Builders for the recurring tests: template bodies and what the tick recorded."""
from __future__ import annotations

from typing import List, Sequence

from app.recurring.schemas import RecurringCreateSchema, RecurringPatchSchema
from models.groups import EXPENSE_PREFIX, Expense


def template_body(payer: str, amount: int, among: Sequence[str], *, start: str = "2026-01-31",
                  frequency: str = "MONTHLY", **schedule) -> dict:
    """Shorthand body: ``payer`` pays ``amount`` split equally, on a schedule."""
    return {"description": "Rent", "category": "HOUSING",
            "payments": [{"participantId": payer, "amount": amount}], "amount": amount,
            "splitMode": "EQUAL", "splits": [{"participantId": pid} for pid in among],
            "frequency": frequency, "startDate": start, **schedule}


def as_request(body: dict) -> dict:
    """A create body as the route hands it to the service: loaded by its schema (the expense
    part as the ledger's ExpenseInput)."""
    return RecurringCreateSchema().load(body)


def as_patch(fields: dict) -> dict:
    """A patch as the route hands it to the service (without the updatedAt it pops)."""
    loaded = RecurringPatchSchema().load({**fields, "updatedAt": "read"})
    del loaded["updatedAt"]
    return loaded


def recorded(group_id: str, recurring_id: str | None = None) -> List[Expense]:
    """Every expense head the tick recorded (strongly consistent), oldest slot first."""
    rows = [e for e in Expense.query(group_id, Expense.SK.startswith(EXPENSE_PREFIX),
                                     consistent_read=True) if e.RecurringId]
    if recurring_id:
        rows = [e for e in rows if e.RecurringId == recurring_id]
    return sorted(rows, key=lambda e: (e.RecurringId, e.RecurringSlot))


def slots(group_id: str, recurring_id: str | None = None) -> List[str]:
    return [e.RecurringSlot for e in recorded(group_id, recurring_id)]
