"""GET /users/me/expenses: the expenses of all my groups that involve me, newest first.

Access pattern (issue 50): my projection (models/users/mine.py, kept by the groups stream:
app.insight.projection), not a fan-out over my groups. A page is:
- one Query of my expense rows (their key holds the date) below the cursor, newest first,
  reading at most ``min(10 x limit, 1,000)`` rows; ``withUserId`` and ``q`` are matched on
  the row (``With``: the accounts it names; ``Names``: its folded description and item
  names; a row too long to hold either is a candidate, and the expense decides);
- one BatchGetItem of the kept rows' expenses and their groups' balance rows (names, the
  DELETING copy, the ``Users`` map), with my profile strongly consistent: the request's
  account check. A page whose keys would pass 200 stops early (a short page with a cursor),
  so a page costs at most 3 calls however many groups I have.

The expense is served as stored now; the projection only picks and orders, and a row it
still holds for an expense that no longer involves me (or them), or for a group I left or
that is being deleted, is skipped: the stream settles those within seconds, and the page
never shows what I may no longer read. The cursor is the last row handed out, or the last
row read when the page ran out of matches: nothing lost, nothing repeated."""
from __future__ import annotations

from typing import List, Optional

from app.core import paging
from app.core.access import UNREADABLE
from app.core.live import read_live_with
from app.errors import Invalid
from app.ledger.balances import expense_participants
from app.ledger.expense_search import Filters, matches, words_of
from models.base import BATCH_GET_LIMIT
from models.groups import Balance, Expense, Group, GroupItem
from models.users import MyEntry
from models.users.mine import EXPENSE_SORT

MAX_ROWS_PER_PAGE = 1000
ROWS_PER_ITEM = 10
# Keys a page may read with its expenses: two BatchGetItems, so the page is at most 3 calls.
MAX_KEYS = 2 * BATCH_GET_LIMIT


def _range(date_from: Optional[str], date_to: Optional[str],
           below: Optional[str]) -> tuple:
    """Order bounds [low, high] (MyEntry.order); ``below`` (the cursor's) is dropped after."""
    low = EXPENSE_SORT + (date_from or "")
    high = below if below is not None else EXPENSE_SORT + ((date_to + "~") if date_to else "~")
    return low, high


def _below(cursor: Optional[str], scope: str) -> Optional[str]:
    after = paging.decode(cursor, scope)
    if after is None:
        return None
    if not isinstance(after.get("k"), str):
        raise Invalid("The cursor is not valid for this list.",
                      details={"cursor": ["Invalid cursor."]})
    key = after["k"]
    # A cursor from before the projection holds a bare ExpenseSortKey.
    return key if key.startswith(EXPENSE_SORT) else EXPENSE_SORT + key


def _picked(entry: MyEntry, with_user_id: Optional[str], words: List[str]) -> bool:
    """A prefilter: None (not stored, MyEntry.fitted) lets the expense itself decide."""
    if with_user_id and entry.With is not None and with_user_id not in entry.With:
        return False
    return entry.Names is None or all(word in entry.Names for word in words)


def _copies(found: dict, groups: set) -> dict:
    """group -> (name, currency, status) from its balance row, or from its head for a row
    older than that copy (one more BatchGetItem, only then)."""
    copies = {g: Balance.head_copy_of(found.get(Balance.key(g))) for g in groups}
    missing = [g for g, copy in copies.items() if copy is None]
    heads = GroupItem.raw_batch_get([Group.key(g) for g in missing]) if missing else {}
    for group_id in missing:
        head = Group.from_raw(heads.get(Group.key(group_id)))
        copies[group_id] = (head.Name, head.Currency, head.Status) if head else None
    return copies


def my_expenses(user_id: str, *, with_user_id: Optional[str], text: Optional[str],
                date_from: Optional[str], date_to: Optional[str], limit: Optional[int],
                cursor: Optional[str], scope: str, max_rows: int = MAX_ROWS_PER_PAGE) -> dict:
    """A page; ``max_rows`` bounds the projection rows its Query reads."""
    if date_from and date_to and date_from > date_to:
        raise Invalid("from must not be after to.", details={"from": ["Must not be after to."]})
    size = paging.clamp_limit(limit)
    below = _below(cursor, scope)
    low, high = _range(date_from, date_to, below)
    words = words_of(text)
    # The range is inclusive, so the cursor's own row comes back first: one more row, so the
    # Query always moves past it.
    budget = min(ROWS_PER_ITEM * size, max_rows) + (1 if below is not None else 0)
    rows = MyEntry.newest_first(user_id, low, high, limit=budget, page_size=budget)
    kept: List[MyEntry] = []
    groups: set = set()
    last_read: Optional[str] = None
    full = False
    for entry in rows:
        if entry.order == below:
            continue
        if len(kept) == size:
            full = True
            break
        last_read = entry.order
        if not _picked(entry, with_user_id, words):
            continue
        if len(kept) + len(groups | {entry.GroupId}) + 1 > MAX_KEYS:
            full = True
            break
        kept.append(entry)
        groups.add(entry.GroupId)
    if full:
        next_key = kept[-1].order if kept else last_read
    else:
        next_key = last_read if rows.last_evaluated_key is not None else None
    found = read_live_with(user_id, GroupItem,
                           [(e.GroupId, e.ResourceKey) for e in kept]
                           + [Balance.key(g) for g in sorted(groups)])
    copies = _copies(found, groups)
    filters = Filters(text=text)
    items = []
    for entry in kept:
        expense = Expense.from_raw(found.get((entry.GroupId, entry.ResourceKey)))
        balance = found.get(Balance.key(entry.GroupId))
        copy = copies.get(entry.GroupId)
        users = Balance.users_of(balance)
        mine = {pid for pid, uid in users.items() if uid == user_id}
        theirs = {pid for pid, uid in users.items() if uid == with_user_id}
        if expense is None or copy is None or copy[2] in UNREADABLE or not mine:
            continue
        named = expense_participants(expense)
        if not (mine & named) or (with_user_id and not theirs & named) \
                or not matches(expense, filters):
            continue
        expense.group_name = copy[0]
        items.append(expense)
    return {"items": items,
            "nextCursor": paging.encode({"k": next_key}, scope) if next_key else None}
