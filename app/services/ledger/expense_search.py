"""Expenses found by text, category and participant (the MCP list_expenses tool's filters).

The group's listing (GroupExpensesIndex, newest first) filtered row by row: an assistant
asked "what did we spend on taxis" or "what did Bob pay" gets the matching expenses without
reading every page itself. Bounded per call (app.services.core.filtered_pages)."""
from __future__ import annotations

from typing import Optional

from app.services.core.access import Access
from app.services.core.filtered_pages import filtered
from app.services.ledger import expenses
from models.groups import Expense


def matches(expense: Expense, *, text: Optional[str], category: Optional[str],
            participant_id: Optional[str]) -> bool:
    if text:
        names = [expense.Description or ""] + [item.Name or "" for item in expense.Items or ()]
        if not any(text.casefold() in name.casefold() for name in names):
            return False
    if category and (expense.Category or "").casefold() != category.casefold():
        return False
    if participant_id:
        involved = {p.ParticipantId for p in expense.Payments or ()}
        involved |= {s.ParticipantId for item in expense.Items or () for s in item.Splits or ()}
        if participant_id not in involved:
            return False
    return True


def search_expenses(access: Access, *, date_from: Optional[str], date_to: Optional[str],
                    text: Optional[str], category: Optional[str],
                    participant_id: Optional[str], limit: Optional[int],
                    cursor: Optional[str], scope: str) -> dict:
    """A page of the listing's matches; with no filter, the listing's own page."""
    def fetch(size: int, after: Optional[str]) -> dict:
        return expenses.list_expenses(access, date_from=date_from, date_to=date_to,
                                      limit=size, cursor=after, scope=scope)

    if not (text or category or participant_id):
        return fetch(limit, cursor)
    return filtered(fetch, lambda row: matches(row, text=text, category=category,
                                               participant_id=participant_id),
                    limit=limit, cursor=cursor)
