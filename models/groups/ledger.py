"""Money rows: expenses (with their payment and split maps), comments, settlements, balance."""
from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Iterator, Optional

from pynamodb.attributes import (BinarySetAttribute, BooleanAttribute, ListAttribute,
                                 MapAttribute, NumberAttribute, UnicodeAttribute,
                                 UnicodeSetAttribute)

from models import pynamodb_adapter
from models.groups import balance_row
from models.groups.base import ExpenseIdIndex, GroupItem
from models.groups.keys import (BALANCE, COMMENT_SEGMENT, CONVERSION_PREFIX, EXPENSE_HEAD_SUFFIX,
                                EXPENSE_PREFIX, NET_PREFIX, PROJECTED_CONVERSION,
                                PROJECTED_EXPENSE, PROJECTED_SETTLEMENT,
                                SETTLEMENT_PREFIX, TRASH_PREFIX)


# The maps nested in an expense (and a recurring template) are stored under one-letter
# names (``attr_name``; code reads the readable ones): a 6-way expense repeats them seven
# times, and the short names keep its row under 1 KB, one write unit per copy written
# (issue 33 lever 5). A raw reader of these rows uses STORED_PARTICIPANT_ID.
STORED_PARTICIPANT_ID = "p"


class PaymentMap(MapAttribute):
    ParticipantId = UnicodeAttribute(attr_name=STORED_PARTICIPANT_ID)
    Amount = NumberAttribute(attr_name="a")
    GroupAmount = NumberAttribute(null=True, attr_name="g")  # converted: group minor units


class SplitMap(MapAttribute):
    ParticipantId = UnicodeAttribute(attr_name=STORED_PARTICIPANT_ID)
    Value = NumberAttribute(default=0, attr_name="v")
    Amount = NumberAttribute(attr_name="a")
    GroupAmount = NumberAttribute(null=True, attr_name="g")  # converted: owed, group units


class ItemMap(MapAttribute):
    Name = UnicodeAttribute(attr_name="n")
    Amount = NumberAttribute(attr_name="a")
    SplitMode = UnicodeAttribute(attr_name="m")
    Splits = ListAttribute(of=SplitMap, attr_name="s")


class ExtraMap(MapAttribute):
    """One extra (tax, tip, service, discount): signed minor units, and its shares aligned
    with the participants in the order they first appear in the items' splits
    (app.money.extras.participant_order). Bare numbers, no ids: a 6-way tip adds ~40 bytes,
    so a 6-way row with extras stays under 1 KB (one write unit per copy)."""

    Name = UnicodeAttribute(attr_name="n")
    Amount = NumberAttribute(attr_name="a")
    Shares = ListAttribute(of=NumberAttribute, attr_name="s")
    GroupShares = ListAttribute(of=NumberAttribute, null=True, attr_name="g")  # converted
class AttachmentMap(MapAttribute):
    """One receipt attached to an expense: its id and what it is (image/jpeg or
    application/pdf), copied from the receipt when attached so a reply reads no receipt."""

    ReceiptId = UnicodeAttribute(attr_name="r")
    ContentType = UnicodeAttribute(attr_name="t")


PICTURE = "image/jpeg"  # what a receipt attached before PDFs (ReceiptId alone) is


def attachments_of(row) -> list:
    """(receiptId, contentType) of every receipt attached to an expense row, the first
    (``ReceiptId``) first; a row from before several attachments holds ReceiptId alone."""
    listed = getattr(row, "Attachments", None)
    if listed:
        return [(a.ReceiptId, a.ContentType) for a in listed]
    receipt_id = getattr(row, "ReceiptId", None)
    return [(receipt_id, PICTURE)] if receipt_id else []


class ExpenseBodyAttributes:
    """What an expense's body is stored as, declared once: an Expense row and a recurring
    template's ``Template`` map (models.groups.recurring.ExpenseTemplateMap) both inherit
    these, so a field added here is stored by both under the same name, and
    app.ledger.expense_body.ExpenseBody takes its fields from ``BODY_FIELDS``, below.

    A plain mixin, not a MapAttribute: a Model and a MapAttribute both collect inherited
    attributes, and the stored names (and so a row's bytes) are the attributes' own."""

    Description = UnicodeAttribute()
    Category = UnicodeAttribute(null=True)
    Notes = UnicodeAttribute(null=True)  # free text (its limit: app.ledger.expense_input.TEXT_MAX)
    Amount = NumberAttribute()
    Payments = ListAttribute(of=PaymentMap)
    Items = ListAttribute(of=ItemMap)
    # May be absent from a template's map (its reply then reads the row's Currency);
    # an Expense requires it.
    Currency = UnicodeAttribute(null=True)
    # A converted body (in a currency other than the group's) records its rate: a decimal
    # string, never a number, so it round-trips exactly ("auto" on a template: each
    # occurrence's reference rate).
    ExchangeRate = UnicodeAttribute(null=True)
    RateSource = UnicodeAttribute(null=True)  # CLIENT | DERIVED | ECB
    RateDate = UnicodeAttribute(null=True)
    GroupAmount = NumberAttribute(null=True)
    # INCOME (money the group received: every net moves the other way); absent means an
    # EXPENSE, so the rows written before income existed read as what they are.
    ExpenseKind = UnicodeAttribute(null=True)
    Extras = ListAttribute(of=ExtraMap, null=True)  # absent when the body has none


# Each body field (app.ledger.expense_body.ExpenseBody's, in this order) -> the attribute it
# is stored as, said pair by pair rather than derived by a naming rule; beside the attributes,
# so the edit that declares one names its field (tests/ledger/test_expense_body.py checks
# that the table and the attributes agree).
BODY_FIELDS = {"description": "Description", "category": "Category", "notes": "Notes",
               "amount": "Amount", "payments": "Payments", "items": "Items",
               "currency": "Currency", "exchange_rate": "ExchangeRate",
               "rate_source": "RateSource", "rate_date": "RateDate",
               "group_amount": "GroupAmount", "kind": "ExpenseKind", "extras": "Extras"}


class Expense(ExpenseBodyAttributes, GroupItem, discriminator="EXPENSE"):
    """An expense head; its body (ExpenseBodyAttributes: payments and itemised splits
    nested on the row), its date and its history."""

    Date = UnicodeAttribute()
    Currency = UnicodeAttribute()  # always recorded on an expense
    Version = NumberAttribute(default=1)
    CreatedBy = UnicodeAttribute(null=True)
    UpdatedBy = UnicodeAttribute(null=True)
    RecurringId = UnicodeAttribute(null=True)
    RecurringSlot = UnicodeAttribute(null=True)
    # Bumped by every comment create in the same transaction; the delete cascade's final
    # transaction conditions on it, so a comment racing the delete restarts the sweep.
    CommentSeq = NumberAttribute(null=True)
    # The attached receipt photo (models.groups.receipts.Receipt), if any: the first of
    # Attachments when that is set (every attach and detach writes both).
    ReceiptId = UnicodeAttribute(null=True)
    Attachments = ListAttribute(of=AttachmentMap, null=True)

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

    def projected_sort(self) -> str:
        """Its order in the cross-group projection (an income too: it lists with expenses);
        ValueError for a bare key model."""
        if not (self.ExpenseSortKey or (self.Date and self.CreatedAt)):
            raise ValueError("not a stored expense row")
        return PROJECTED_EXPENSE + (self.ExpenseSortKey or self.expense_sort_key(
            self.Date, self.CreatedAt, self.SK[len(EXPENSE_PREFIX):].split("#", 1)[0]))

    @classmethod
    def date_keys(cls, date: str, created_at: str, expense_id: str) -> dict:
        """The index key derived from the date, set by every write of a head: its place in
        GroupExpensesIndex (the listing's and the statement's order)."""
        return {"ExpenseSortKey": cls.expense_sort_key(date, created_at, expense_id)}

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

    @property
    def day(self) -> str:
        """Its date: recorded, else the day it was created."""
        return self.Date or self.CreatedAt[:10]

    def projected_sort(self) -> str:
        if not (self.CreatedAt and self.SettlementId):
            raise ValueError("not a stored settlement row")
        return f"{PROJECTED_SETTLEMENT}{self.day}#{self.CreatedAt}#{self.SettlementId}"

    @classmethod
    def newest_first(cls, group_id: str, **kwargs) -> Iterator["Settlement"]:
        return cls.query(group_id, cls.SK.startswith(SETTLEMENT_PREFIX), scan_index_forward=False,
                         **kwargs)


class Balance(GroupItem, discriminator="BALANCE"):
    """Materialised nets, netted pairwise debts and FAIR rounding of a group, on dynamic
    attribute names against a seat list (models.groups.balance_row): read from the raw
    item (:meth:`nets_of`, :meth:`pairs_of`, :meth:`rounding_of`), written with that
    module's ``encode``."""

    BalanceRevision = NumberAttribute(default=0)
    Initialized = BooleanAttribute(default=False)
    ExpenseCount = NumberAttribute(default=0)
    SettlementCount = NumberAttribute(default=0)
    # USER participantId -> userId, kept by every roster change that binds or unbinds a user
    # (create, import, join, invitation, leave, removal, account deletion's guest
    # conversion), so /users/me/people knows who is an account without reading rosters.
    # A binary set of 32-byte pairs (the two UUIDs' bytes), not a map of strings: this row
    # is rewritten by every money write, and a map entry would take 75 bytes, not 32.
    # ADD/DELETE of one element is atomic and needs no parent attribute.
    Users = BinarySetAttribute(null=True, legacy_encoding=False)
    # A copy of the head's Name and Currency, and its Status once DELETING (absent while the
    # group is readable; an IMPORTING group has no member until its flip writes the copy), so
    # the cross-group reads (/users/me/people, /users/me/expenses) read this row and not the
    # head. Every head write that changes them writes the copy in its TransactWrite (create,
    # rename, currency change, import flip, tombstone). Absent on rows older than the copy:
    # those readers read the head instead (:meth:`head_copy_of` answers None).
    Name = UnicodeAttribute(null=True)
    Currency = UnicodeAttribute(null=True)
    Status = UnicodeAttribute(null=True)
    # The head's SimplifyDebts (absent: true), written with it (app.groups.groups).
    SimplifyDebts = BooleanAttribute(null=True)

    @staticmethod
    def key(group_id: str) -> tuple:
        return group_id, BALANCE

    @classmethod
    def copy_head(cls, name: str, currency: str) -> list:
        """The update actions writing the head copy (both fields: a row older than the copy
        gains all of it)."""
        return [cls.Name.set(name), cls.Currency.set(currency)]

    @classmethod
    def head_copy_of(cls, raw_item: Optional[dict]) -> Optional[tuple]:
        """(name, currency, status or None) copied from the head, or None without a copy."""
        raw_item = raw_item or {}
        name, currency = raw_item.get(cls.Name.attr_name), raw_item.get(cls.Currency.attr_name)
        if name is None or currency is None:
            return None
        status = raw_item.get(cls.Status.attr_name)
        return name["S"], currency["S"], status["S"] if status else None

    @staticmethod
    def user_pair(participant_id: str, user_id: str) -> bytes:
        """One ``Users`` element: both UUIDs' 16 bytes; an id that is not a UUID is spelled
        out (``pid NUL uid``, never 32 bytes long)."""
        try:
            return uuid.UUID(participant_id).bytes + uuid.UUID(user_id).bytes
        except ValueError:
            spelled = f"{participant_id}\0{user_id}".encode()
            return spelled + b"\0" if len(spelled) == 32 else spelled

    @staticmethod
    def pair_of(value: bytes) -> tuple:
        if len(value) == 32:
            return str(uuid.UUID(bytes=value[:16])), str(uuid.UUID(bytes=value[16:]))
        pid, _, uid = value.decode().partition("\0")
        return pid, uid.rstrip("\0")

    @classmethod
    def bind_user(cls, participant_id: str, user_id: str):
        """The update action that files a USER participant under its account."""
        return cls.Users.add({cls.user_pair(participant_id, user_id)})

    @classmethod
    def unbind_user(cls, participant_id: str, user_id: str):
        return cls.Users.delete({cls.user_pair(participant_id, user_id)})

    @classmethod
    def users_of(cls, raw_item: Optional[dict]) -> dict:
        """participantId -> userId from a raw balance item."""
        values = (raw_item or {}).get(cls.Users.attr_name, {}).get("BS", [])
        return dict(cls.pair_of(bytes(value)) for value in values)

    # Nets, pairs and rounding: stored against seat numbers, read and written only through
    # models.groups.balance_row (the layout, and the first layout's rows, live there).
    @staticmethod
    def net_attribute(participant_id: str) -> str:
        """A net's name in the first layout (``Net_<ledger key>``): still read, written only
        by tests that seed a row as the service once stored it."""
        return NET_PREFIX + participant_id

    @staticmethod
    def nets_of(raw_item: Optional[dict]) -> dict:
        """Ledger key -> net from a raw (DynamoDB-JSON) balance item."""
        return balance_row.decode(raw_item).nets

    @staticmethod
    def pairs_of(raw_item: Optional[dict]) -> dict:
        """Pair key -> netted pairwise debt from a raw balance item (app.ledger.balances)."""
        return balance_row.decode(raw_item).pairs

    @staticmethod
    def rounding_of(raw_item: Optional[dict]) -> dict:
        """Ledger key -> cumulative rounding (an exact fraction's text) from a raw item."""
        return balance_row.decode(raw_item).rounding

    @classmethod
    def simplifies(cls, raw_item: Optional[dict]) -> bool:
        """The group's default view (Group.SimplifyDebts, copied here): True unless off."""
        value = (raw_item or {}).get(cls.SimplifyDebts.attr_name)
        return True if value is None else bool(value.get("BOOL"))

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
    # The kept currency's netted pairwise debts it cleared (``<low>#<high>`` -> what low owed
    # high), so an undo gives the pairwise view back exactly (app.ledger.balances).
    KeptPairs = MapAttribute(null=True)
    CreatedBy = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(created_at: str, conversion_id: str) -> str:
        return f"{CONVERSION_PREFIX}{created_at}#{conversion_id}"

    def projected_sort(self) -> str:
        if not (self.CreatedAt and self.ConversionId):
            raise ValueError("not a stored conversion row")
        return f"{PROJECTED_CONVERSION}{self.CreatedAt[:10]}#{self.CreatedAt}#{self.ConversionId}"

    @classmethod
    def newest_first(cls, group_id: str, **kwargs) -> Iterator["Conversion"]:
        return cls.query(group_id, cls.SK.startswith(CONVERSION_PREFIX),
                         scan_index_forward=False, **kwargs)


class Trashed(GroupItem, discriminator="TRASHED"):
    """A deleted expense or settlement, kept for 30 days to be restored (api.md "Archive and
    trash"): the row as it was (``Snapshot``, its raw DynamoDB image as JSON, so no index
    attribute of the original is set here and it is in no listing) and what the trash list
    shows. The table's TTL (``ExpiresAt``) purges it; readers treat it as gone from
    ExpiresAt on, before TTL gets to it. An expense's comments stay under its sort-key
    prefix meanwhile (app.ledger.orphan_comments keeps them while this row stands)."""

    Kind = UnicodeAttribute()  # EXPENSE | SETTLEMENT
    ResourceId = UnicodeAttribute()
    Description = UnicodeAttribute(null=True)
    Amount = NumberAttribute()
    Currency = UnicodeAttribute(null=True)
    DeletedAt = UnicodeAttribute()
    DeletedBy = UnicodeAttribute()  # the deleting participant
    ExpiresAt = NumberAttribute()  # TTL (unix seconds)
    Snapshot = UnicodeAttribute()

    @staticmethod
    def sort_key(resource_id: str) -> str:
        return f"{TRASH_PREFIX}{resource_id}"

    @property
    def expires_at(self) -> str:
        """ExpiresAt as an ISO 8601 UTC timestamp (the API's form)."""
        moment = datetime.fromtimestamp(int(self.ExpiresAt), tz=timezone.utc)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")
