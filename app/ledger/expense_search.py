"""Expenses found by words, category, participant and amount (GET /groups/{id}/expenses'
filters and the MCP list_expenses tool).

The group's listing (GroupExpensesIndex, newest first) filtered row by row. Bounded per call
(app.core.filtered_pages): a page reads at most 10 x ``limit`` <= 1,000 rows, may come
back short (even empty) with a cursor, and its cursor is the end of the last page it read,
so following cursors visits every row exactly once: nothing lost, nothing repeated."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional

from app.errors import Invalid
from app.names import folded
from app.core.access import Access
from app.core.filtered_pages import filtered
from app.ledger import expenses


def words_of(text: Optional[str]) -> List[str]:
    return folded(text or "").split()


@dataclass(frozen=True)
class Filters:
    text: Optional[str] = None
    category: Optional[str] = None
    participant_id: Optional[str] = None
    min_amount: Optional[int] = None
    max_amount: Optional[int] = None

    @property
    def any(self) -> bool:
        return bool(words_of(self.text) or self.category or self.participant_id
                    or self.min_amount is not None or self.max_amount is not None)

    def scope_suffix(self) -> str:
        """Names the filter in the cursor scope: a cursor resumes only its own listing."""
        return (f":{' '.join(words_of(self.text))}:{self.category}:{self.participant_id}"
                f":{self.min_amount}:{self.max_amount}")


def group_amount(expense: Any) -> int:
    """The row's amount in group minor units: a converted row by its groupAmount."""
    value = getattr(expense, "GroupAmount", None)
    return int(value if value is not None else expense.Amount)


def matches(expense: Any, filters: Filters) -> bool:
    words = words_of(filters.text)
    if words:
        names = [folded(expense.Description or "")]
        names += [folded(item.Name or "") for item in expense.Items or ()]
        if not all(any(word in name for name in names) for word in words):
            return False
    if filters.category and (expense.Category or "").casefold() != filters.category.casefold():
        return False
    if filters.participant_id:
        involved = {p.ParticipantId for p in expense.Payments or ()}
        involved |= {s.ParticipantId for item in expense.Items or () for s in item.Splits or ()}
        if filters.participant_id not in involved:
            return False
    amount = group_amount(expense)
    if filters.min_amount is not None and amount < filters.min_amount:
        return False
    if filters.max_amount is not None and amount > filters.max_amount:
        return False
    return True


def search_expenses(access: Access, *, date_from: Optional[str], date_to: Optional[str],
                    text: Optional[str] = None, category: Optional[str] = None,
                    participant_id: Optional[str] = None, min_amount: Optional[int] = None,
                    max_amount: Optional[int] = None, limit: Optional[int],
                    cursor: Optional[str], scope: str) -> dict:
    """A page of the listing's matches; with no filter, the listing's own page."""
    if min_amount is not None and max_amount is not None and min_amount > max_amount:
        raise Invalid("minAmount must not be above maxAmount.",
                      details={"minAmount": ["Must not be above maxAmount."]})
    filters = Filters(text, category, participant_id, min_amount, max_amount)

    def fetch(size: int, after: Optional[str]) -> dict:
        return expenses.list_expenses(access, date_from=date_from, date_to=date_to,
                                      limit=size, cursor=after, scope=scope)

    if not filters.any:
        return fetch(limit, cursor)
    return filtered(fetch, lambda row: matches(row, filters), limit=limit, cursor=cursor)
