"""Money rows: expenses (with their payment and split maps), comments, settlements, balance."""
from __future__ import annotations

from typing import Iterator, Optional

from pynamodb.attributes import (BooleanAttribute, ListAttribute, MapAttribute, NumberAttribute,
                                 UnicodeAttribute, UnicodeSetAttribute)

from models import pynamodb_adapter
from models.groups.base import ExpenseIdIndex, GroupItem
from models.groups.keys import (BALANCE, COMMENT_SEGMENT, CONVERSION_PREFIX, EXPENSE_HEAD_SUFFIX,
                                EXPENSE_PREFIX,
                                NET_PREFIX, SETTLEMENT_PREFIX)


class PaymentMap(MapAttribute):
    ParticipantId = UnicodeAttribute()
    Amount = NumberAttribute()
    GroupAmount = NumberAttribute(null=True)  # converted rows: in group minor units


class SplitMap(MapAttribute):
    ParticipantId = UnicodeAttribute()
    Value = NumberAttribute(default=0)
    Amount = NumberAttribute()
    GroupAmount = NumberAttribute(null=True)  # converted rows: owed in group minor units


class ItemMap(MapAttribute):
    Name = UnicodeAttribute()
    Amount = NumberAttribute()
    SplitMode = UnicodeAttribute()
    Splits = ListAttribute(of=SplitMap)


class Expense(GroupItem, discriminator="EXPENSE"):
    """An expense head; payments and itemised splits are nested on the row."""

    Description = UnicodeAttribute()
    Category = UnicodeAttribute(null=True)
    Date = UnicodeAttribute()
    Currency = UnicodeAttribute()
    Amount = NumberAttribute()
    Payments = ListAttribute(of=PaymentMap)
    Items = ListAttribute(of=ItemMap)
    # A converted row (in a currency other than the group's) records its rate: a decimal
    # string, never a number, so it round-trips exactly.
    ExchangeRate = UnicodeAttribute(null=True)
    RateSource = UnicodeAttribute(null=True)  # CLIENT | DERIVED | ECB
    RateDate = UnicodeAttribute(null=True)
    GroupAmount = NumberAttribute(null=True)
    Version = NumberAttribute(default=1)
    CreatedBy = UnicodeAttribute(null=True)
    UpdatedBy = UnicodeAttribute(null=True)
    RecurringId = UnicodeAttribute(null=True)
    RecurringSlot = UnicodeAttribute(null=True)
    # Bumped by every comment create in the same transaction; the delete cascade's final
    # transaction conditions on it, so a comment racing the delete restarts the sweep.
    CommentSeq = NumberAttribute(null=True)
    # The attached receipt photo (models.groups.receipts.Receipt), if any.
    ReceiptId = UnicodeAttribute(null=True)

    @staticmethod
    def thread_prefix(expense_id: str) -> str:
        """begins_with this returns the head, then its comments in order."""
        return f"{EXPENSE_PREFIX}{expense_id}#"

    @staticmethod
    def sort_key(expense_id: str) -> str:
        return f"{EXPENSE_PREFIX}{expense_id}{EXPENSE_HEAD_SUFFIX}"

    @staticmethod
    def expense_sort_key(date: str, created_at: str, expense_id: str) -> str:
        return f"{date}#{created_at}#{expense_id}"

    @classmethod
    def listing(cls, group_id: str, date_from: Optional[str] = None,
                date_to: Optional[str] = None, **kwargs) -> Iterator["Expense"]:
        """Newest first by date then creation, via GroupExpensesIndex; dates are inclusive.

        ExpenseSortKey is "<date>#..."; "~" sorts after every character a key continues with,
        so "<to>~" bounds the whole of the last day."""
        condition = None
        if date_from and date_to:
            condition = cls.ExpenseSortKey.between(date_from, date_to + "~")
        elif date_from:
            condition = cls.ExpenseSortKey >= date_from
        elif date_to:
            condition = cls.ExpenseSortKey < date_to + "~"
        return cls.group_expenses.query(group_id, condition, scan_index_forward=False, **kwargs)

    @classmethod
    def locate(cls, expense_id: str) -> Optional[tuple]:
        """(GroupId, SK) of an expense head via the KEYS_ONLY ExpenseIdIndex, or None.

        Queried through the raw connection: a polymorphic query would add an EntityType
        filter that a KEYS_ONLY projection cannot satisfy."""
        data = pynamodb_adapter.table_connection(cls).query(
            expense_id, index_name=ExpenseIdIndex.Meta.index_name, limit=1)
        for item in data.get("Items", []):
            return item["GroupId"]["S"], item["SK"]["S"]
        return None


class Comment(GroupItem, discriminator="COMMENT"):
    """A comment on an expense; its parent is known only through the sort-key prefix."""

    CommentId = UnicodeAttribute()
    AuthorUserId = UnicodeAttribute()
    AuthorParticipantId = UnicodeAttribute(null=True)
    Body = UnicodeAttribute()
    Mentions = UnicodeSetAttribute(null=True)
    EditedAt = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(expense_id: str, created_at: str, comment_id: str) -> str:
        return f"{EXPENSE_PREFIX}{expense_id}{COMMENT_SEGMENT}{created_at}#{comment_id}"

    @property
    def expense_id(self) -> str:
        """The parent expense, read back from the sort key (the row stores no ExpenseId)."""
        return self.SK[len(EXPENSE_PREFIX):].split(COMMENT_SEGMENT, 1)[0]


class Settlement(GroupItem, discriminator="SETTLEMENT"):
    """A direct payment from PayerId to PayeeId."""

    SettlementId = UnicodeAttribute()
    PayerId = UnicodeAttribute()
    PayeeId = UnicodeAttribute()
    Amount = NumberAttribute()
    Currency = UnicodeAttribute(null=True)  # absent: the group's
    # A converted row (in a currency other than the group's) records its rate: a decimal
    # string, never a number, so it round-trips exactly.
    ExchangeRate = UnicodeAttribute(null=True)
    RateSource = UnicodeAttribute(null=True)  # CLIENT | DERIVED | ECB
    RateDate = UnicodeAttribute(null=True)
    GroupAmount = NumberAttribute(null=True)
    Date = UnicodeAttribute(null=True)
    Note = UnicodeAttribute(null=True)
    Version = NumberAttribute(default=1)
    CreatedBy = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(created_at: str, settlement_id: str) -> str:
        return f"{SETTLEMENT_PREFIX}{created_at}#{settlement_id}"

    @classmethod
    def newest_first(cls, group_id: str, **kwargs) -> Iterator["Settlement"]:
        return cls.query(group_id, cls.SK.startswith(SETTLEMENT_PREFIX), scan_index_forward=False,
                         **kwargs)


class Balance(GroupItem, discriminator="BALANCE"):
    """Materialised nets: one top-level ``Net_<participantId>`` number per participant.

    Nets are dynamic attribute names, so they are read from the raw item
    (:meth:`nets_of`) and changed with ADD actions on ``Path(net_attribute(pid))``."""

    BalanceRevision = NumberAttribute(default=0)
    Initialized = BooleanAttribute(default=False)
    ExpenseCount = NumberAttribute(default=0)
    SettlementCount = NumberAttribute(default=0)

    @staticmethod
    def key(group_id: str) -> tuple:
        return group_id, BALANCE

    @staticmethod
    def net_attribute(participant_id: str) -> str:
        return NET_PREFIX + participant_id

    @staticmethod
    def nets_of(raw_item: dict) -> dict:
        """participantId -> net from a raw (DynamoDB-JSON) balance item."""
        return {name[len(NET_PREFIX):]: int(value["N"]) for name, value in raw_item.items()
                if name.startswith(NET_PREFIX)}

    @staticmethod
    def revision_of(raw_item: Optional[dict]) -> Optional[int]:
        value = (raw_item or {}).get("BalanceRevision")
        return int(value["N"]) if value else None

    @staticmethod
    def is_initialized(raw_item: Optional[dict]) -> bool:
        return bool(raw_item and raw_item.get("Initialized", {}).get("BOOL"))

    @classmethod
    def fetch_raw(cls, group_id: str, consistent_read: bool = True) -> Optional[dict]:
        return cls.raw_get(group_id, BALANCE, consistent_read=consistent_read)


class Conversion(GroupItem, discriminator="CONVERSION"):
    """Every kept net of one currency moved into the main currency at one recorded rate.

    ``KeptNets`` (participantId -> net in ``Currency`` minor units) are the nets it cleared,
    ``GroupNets`` their converted values (group minor units, apportioned to sum to 0)."""

    ConversionId = UnicodeAttribute()
    Currency = UnicodeAttribute()
    ExchangeRate = UnicodeAttribute()
    RateSource = UnicodeAttribute()
    RateDate = UnicodeAttribute(null=True)
    KeptNets = MapAttribute()
    GroupNets = MapAttribute()
    CreatedBy = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(created_at: str, conversion_id: str) -> str:
        return f"{CONVERSION_PREFIX}{created_at}#{conversion_id}"

    @classmethod
    def newest_first(cls, group_id: str, **kwargs) -> Iterator["Conversion"]:
        return cls.query(group_id, cls.SK.startswith(CONVERSION_PREFIX),
                         scan_index_forward=False, **kwargs)
