"""The account's cross-group projection: one small row per expense or settlement of one of
its groups that names the account's participant (issue 50). The change stream keeps it
(app.insight.projection); /users/me/expenses and /users/me/stats read it through
MyEntriesIndex, newest first, one Query a page however many groups the account has."""
from __future__ import annotations

from typing import Iterator, Optional

from pynamodb.attributes import NumberAttribute, UnicodeAttribute, UnicodeSetAttribute
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex

from models.users.base import UserItem, _pointer_pages
from models.users.keys import MINE_PREFIX

# MineSort's first segment: a kind's rows sort together, so a listing of expenses reads no
# settlement row.
EXPENSE_SORT, SETTLEMENT_SORT = "E#", "S#"


class MyEntriesIndex(GlobalSecondaryIndex):
    """An account's projection rows by kind, date, creation and id (sparse: MINE rows only).
    The base key is stable per (group, resource), so an edit that moves the date rewrites
    one row; this index orders them."""

    class Meta:
        index_name = "MyEntriesIndex"
        projection = AllProjection()

    MineUser = UnicodeAttribute(hash_key=True)
    MineSort = UnicodeAttribute(range_key=True)


class MyEntry(UserItem, discriminator="MINE"):
    """What the cross-group reads need of one resource, from the account's side."""

    GroupId = UnicodeAttribute()
    ResourceKey = UnicodeAttribute()  # the resource's sort key in its group
    Kind = UnicodeAttribute()  # EXPENSE | SETTLEMENT (models.groups.ChangeKind)
    Date = UnicodeAttribute()
    Description = UnicodeAttribute(null=True)
    # The section the account's shares count in: the group's currency for a converted row.
    Currency = UnicodeAttribute()
    Category = UnicodeAttribute(null=True)
    Paid = NumberAttribute(default=0)  # the account's payments (minor units of Currency)
    Owed = NumberAttribute(default=0)  # the account's shares
    # Folded description and item names, one a line: q matches a word within one of them.
    Names = UnicodeAttribute(null=True)
    With = UnicodeSetAttribute(null=True)  # every account the resource names (withUserId)
    Version = NumberAttribute()  # the resource's: a write never replaces a newer one
    MineUser = UnicodeAttribute()
    MineSort = UnicodeAttribute()

    by_date = MyEntriesIndex()

    @staticmethod
    def sort_key(group_id: str, resource_key: str) -> str:
        return f"{MINE_PREFIX}{group_id}#{resource_key}"

    @staticmethod
    def group_prefix(group_id: str) -> str:
        return f"{MINE_PREFIX}{group_id}#"

    @classmethod
    def of_group(cls, user_id: str, group_id: str, page_size: int = 500) -> Iterator["MyEntry"]:
        """The account's rows of one group (strongly consistent)."""
        for page in _pointer_pages(cls, user_id, cls.group_prefix(group_id), page_size):
            yield from page

    @classmethod
    def pages_of(cls, user_id: str, page_size: int) -> Iterator[list]:
        """Every projection row of the account, a page at a time (account deletion)."""
        return _pointer_pages(cls, user_id, MINE_PREFIX, page_size)

    @classmethod
    def newest_first(cls, user_id: str, low: str, high: str, *, limit: Optional[int] = None,
                     page_size: Optional[int] = None, last_evaluated_key=None):
        """Rows with MineSort in [low, high], newest first (MyEntriesIndex)."""
        return cls.by_date.query(user_id, cls.MineSort.between(low, high),
                                 scan_index_forward=False, limit=limit, page_size=page_size,
                                 last_evaluated_key=last_evaluated_key)
