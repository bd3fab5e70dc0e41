"""The account's cross-group projection: one small row per expense (or income), settlement and
conversion of one of its groups that involves the account (issue 50). The change stream
keeps it (app.insight.projection); /users/me/expenses and /users/me/stats read it from the
base table, newest first, one Query a page however many groups the account has.

The sort key orders the rows: ``MINE#<kind letter>#<date>#<createdAt>#<resource id>#<group>``
(:meth:`MyEntry.sort_key`). No index: an index entry is a second write unit per row and
account on every money write (issue 50's cost item). The price is that a row's key moves
when its resource's date does; the change row names the key the resource had before
(Change.SortedAs), so the projector finds the old row without reading by group."""
from __future__ import annotations

from typing import Iterator, Optional

from pynamodb.attributes import NumberAttribute, UnicodeAttribute, UnicodeSetAttribute

from models.groups.keys import PROJECTED_CONVERSION, PROJECTED_EXPENSE, PROJECTED_SETTLEMENT
from models.users.base import UserItem, _pointer_pages
from models.users.keys import MINE_PREFIX

# The first segment of a row's order (its resource's ``projected_sort``): a kind's rows sort
# together, so a listing of expenses reads no settlement or conversion row.
EXPENSE_SORT, SETTLEMENT_SORT, CONVERSION_SORT = (PROJECTED_EXPENSE, PROJECTED_SETTLEMENT,
                                                  PROJECTED_CONVERSION)
# A row is kept within one write unit (1 KB): ``Names`` and ``With`` are only a page's
# prefilter (the page re-checks the expense itself), so a row whose folded names or
# accounts would pass this stores none, and every page takes it as a candidate.
ROW_BYTES = 1000


class MyEntry(UserItem, discriminator="MINE"):
    """What the cross-group reads need of one resource, from the account's side."""

    GroupId = UnicodeAttribute()
    ResourceKey = UnicodeAttribute()  # the resource's sort key in its group
    # EXPENSE (default), INCOME (an expense row's own Kind), SETTLEMENT or CONVERSION.
    Kind = UnicodeAttribute()
    Date = UnicodeAttribute()
    Description = UnicodeAttribute(null=True)
    # The section the account's shares count in: the group's currency for a converted row;
    # a conversion's kept currency.
    Currency = UnicodeAttribute()
    Category = UnicodeAttribute(null=True)
    # The account's payments and shares (minor units of Currency); a conversion: Paid - Owed
    # is what it moved out of the account's net in Currency.
    Paid = NumberAttribute(default=0)
    Owed = NumberAttribute(default=0)
    # A conversion only: what it moved into the account's net in the group's currency.
    GroupNet = NumberAttribute(null=True)
    # Folded description and item names, one a line: q matches a word within one of them.
    # Absent when too long for the row (ROW_BYTES): the page then checks the expense.
    Names = UnicodeAttribute(null=True)
    # Every account the resource names (withUserId); absent when too many for the row.
    With = UnicodeSetAttribute(null=True)
    Version = NumberAttribute()  # the resource's: a write never replaces a newer one

    @staticmethod
    def sort_key(sort: str, group_id: str) -> str:
        """The row's key from its resource's ``projected_sort`` (kind letter, date, creation,
        id) and its group: a resource transferred with its id keeps one row per group."""
        return f"{MINE_PREFIX}{sort}#{group_id}"

    def item_bytes(self) -> int:
        """The stored size as DynamoDB counts it: attribute names and values (a number
        counted by its digits, about what DynamoDB stores)."""
        size = 0
        for name, value in self.serialize().items():
            size += len(name.encode())
            (kind, stored), = value.items()
            members = stored if isinstance(stored, list) else [stored]
            size += sum(len(str(member).encode()) for member in members)
        return size

    def fitted(self) -> "MyEntry":
        """Itself within ROW_BYTES: without Names, then without With, if either is too long."""
        for name in ("Names", "With"):
            if self.item_bytes() <= ROW_BYTES:
                break
            setattr(self, name, None)
        return self

    @property
    def order(self) -> str:
        """The key without its prefix: what a page's cursor holds."""
        return self.SK[len(MINE_PREFIX):]

    @classmethod
    def of_group(cls, user_id: str, group_id: str, page_size: int = 500) -> Iterator["MyEntry"]:
        """The account's rows of one group (strongly consistent): its whole projection read,
        the group's kept. Only a roster change, a group deletion and the backfill ask."""
        return cls.query(user_id, cls.SK.startswith(MINE_PREFIX),
                         filter_condition=cls.GroupId == group_id, consistent_read=True,
                         page_size=page_size)

    @classmethod
    def pages_of(cls, user_id: str, page_size: int) -> Iterator[list]:
        """Every projection row of the account, a page at a time (account deletion)."""
        return _pointer_pages(cls, user_id, MINE_PREFIX, page_size)

    @classmethod
    def newest_first(cls, user_id: str, low: str, high: str, *, limit: Optional[int] = None,
                     page_size: Optional[int] = None, last_evaluated_key=None):
        """Rows whose order (the key without MINE#) is in [low, high], newest first."""
        return cls.query(user_id, cls.SK.between(MINE_PREFIX + low, MINE_PREFIX + high),
                         scan_index_forward=False, limit=limit, page_size=page_size,
                         last_evaluated_key=last_evaluated_key)
