"""Expense request bodies as the routes hand them to the ledger's services.

The services take only the typed ExpenseInput; a test writes the body as a client sends it
(camelCase, minor units) and loads it with the route's own schema, so a service test cannot
pass what no route would."""
from __future__ import annotations

from app.ledger.expense_input import ExpenseInput
from app.ledger.schemas import ExpenseCreateSchema, ExpensePatchSchema


def as_create(body: dict) -> ExpenseInput:
    """A POST .../expenses body as its route hands it to ``create_expense``."""
    return ExpenseCreateSchema().load(body)


def as_edit(fields: dict) -> ExpenseInput:
    """A PATCH .../expenses/{id} body's changes (no version) as its route hands them to
    ``update_expense``."""
    return ExpensePatchSchema().load({**fields, "version": 1}).changes
