"""GET /users/me/expenses: the expenses of all my groups that involve me, newest first.

Access pattern: a bounded fan-out over my groups with a merged cursor (no index row per user,
so expense writes cost nothing extra). A page is:
- my live groups and their balance rows (app.people.shared_groups: one Query and
  one BatchGetItem per 100 groups, which also checks my account); ``withUserId`` keeps only the groups where that account
  has a participant (the balance row's ``Users`` map), and names it there;
- one GroupExpensesIndex Query per kept group, each reading at most
  ``min(10 x limit, 1,000) / groups`` rows (at least 1) below the cursor, newest first;
- a merge by ExpenseSortKey (``<date>#<createdAt>#<expenseId>``, unique across groups).

A group whose Query stopped before its end has a *frontier* (the last key it read). Only rows
at or above the highest frontier are known to be in order across every group, so the page
holds those (at most ``limit``) and the cursor is the last key handed out, or that frontier
when fewer: the next page starts strictly below it. Every row is read again only when it was
not handed out, and handed out exactly once: nothing lost, nothing repeated. A page may be
short (even empty) with a cursor, as filtered group listings are."""
from __future__ import annotations

from typing import List, Optional, Tuple

from app.errors import Invalid
from app.core import paging
from app.ledger.balances import expense_participants
from app.ledger.expense_search import Filters, matches
from app.people.shared_groups import SharedGroup, shared_groups
from models.groups import Expense

MAX_ROWS_PER_PAGE = 1000
ROWS_PER_ITEM = 10


def _condition(date_from: Optional[str], date_to: Optional[str], below: Optional[str]):
    key = Expense.ExpenseSortKey
    if below is not None:  # the cursor's key: strictly below it (dropped after the read)
        return key.between(date_from, below) if date_from else key < below
    if date_from and date_to:
        return key.between(date_from, date_to + "~")
    if date_from:
        return key >= date_from
    if date_to:
        return key < date_to + "~"
    return None


def _below(cursor: Optional[str], scope: str) -> Optional[str]:
    after = paging.decode(cursor, scope)
    if after is None:
        return None
    if not isinstance(after.get("k"), str):
        raise Invalid("The cursor is not valid for this list.",
                      details={"cursor": ["Invalid cursor."]})
    return after["k"]


def _wanted(group: SharedGroup, with_user_id: Optional[str]) -> Optional[Tuple[str, ...]]:
    """The participants an expense must name in this group, or None to skip the group."""
    if not with_user_id:
        return (group.participant_id,)
    them = group.participant_of(with_user_id)
    return None if them is None else tuple({group.participant_id, them})


def my_expenses(user_id: str, *, with_user_id: Optional[str], text: Optional[str],
                date_from: Optional[str], date_to: Optional[str], limit: Optional[int],
                cursor: Optional[str], scope: str, max_rows: int = MAX_ROWS_PER_PAGE) -> dict:
    """A page; ``max_rows`` bounds the rows its Queries read together (at least 1 a group)."""
    if date_from and date_to and date_from > date_to:
        raise Invalid("from must not be after to.", details={"from": ["Must not be after to."]})
    size = paging.clamp_limit(limit)
    below = _below(cursor, scope)
    groups = [(g, wanted) for g in shared_groups(user_id)
              for wanted in [_wanted(g, with_user_id)] if wanted is not None]
    if not groups:
        return {"items": [], "nextCursor": None}
    # With a lower date bound the cursor's own row comes back (between is inclusive): one
    # more row per group, so every Query moves past it.
    extra = 1 if below is not None and date_from else 0
    per_group = max(1, min(ROWS_PER_ITEM * size, max_rows) // len(groups) - extra)
    words = Filters(text=text)
    found: List[Tuple[str, str, Expense]] = []
    frontiers: List[str] = []
    for group, wanted in groups:
        rows = Expense.group_expenses.query(
            group.group_id, _condition(date_from, date_to, below), scan_index_forward=False,
            limit=per_group + extra, page_size=per_group + extra)
        last = None
        for row in rows:
            last = row.ExpenseSortKey
            if row.ExpenseSortKey == below:
                continue
            if set(wanted) <= expense_participants(row) and matches(row, words):
                row.group_name = group.name
                found.append((row.ExpenseSortKey, row.GroupId, row))
        if rows.last_evaluated_key is not None and last is not None:
            frontiers.append(last)
    floor = max(frontiers) if frontiers else None
    ready = sorted((f for f in found if floor is None or f[0] >= floor), reverse=True,
                   key=lambda f: (f[0], f[1]))
    page = ready[:size]
    if len(ready) > size:
        next_key: Optional[str] = page[-1][0]
    else:
        next_key = floor
    return {"items": [row for _, _, row in page],
            "nextCursor": paging.encode({"k": next_key}, scope) if next_key else None}
