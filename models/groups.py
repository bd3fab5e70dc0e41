"""GroupData: one partition per group holding every per-group row kind.

Row kinds share the ``GroupId`` partition and are told apart by the sort-key prefix and the
``EntityType`` discriminator (values are permanent: never rename them).
"""
from __future__ import annotations

import hashlib
from typing import Iterator, Optional

from pynamodb.attributes import (BooleanAttribute, DiscriminatorAttribute, ListAttribute,
                                 MapAttribute, NumberAttribute, UnicodeAttribute,
                                 UnicodeSetAttribute)
from pynamodb.indexes import (AllProjection, GlobalSecondaryIndex, IncludeProjection,
                              KeysOnlyProjection)
from pynamodb.models import Model

from models.base import RawAccess, table

# Sort-key prefixes (the only place they are spelled).
META = "META"
INVITE = "INVITE"
JOINREQ_PREFIX = "JOINREQ#"
JOINLOCK_PREFIX = "JOINLOCK#"
PARTICIPANT_PREFIX = "PARTICIPANT#"
USERMEMBER_PREFIX = "USERMEMBER#"
EXPENSE_PREFIX = "EXPENSE#"
EXPENSE_HEAD_SUFFIX = "#0#META"
COMMENT_SEGMENT = "#1#COMMENT#"
RECURRING_PREFIX = "RECURRING#"
SETTLEMENT_PREFIX = "SETTLEMENT#"
BALANCE = "BALANCE#v1"
NET_PREFIX = "Net_"
# Active recurring templates are spread over DUE_BUCKETS index partitions ("RECURRING#<n>",
# n from a hash of GroupId): one group stays in one bucket, so its occurrences stay serial.
# 128 serial workers at ~59 ms per occurrence record 1M occurrences in ~8 minutes.
DUE_BUCKET_PREFIX = "RECURRING#"
DUE_BUCKETS = 128
# Group heads whose delete sweep is unfinished share the due index under their own bucket,
# so the maintenance job finds them with one query instead of a table scan.
DELETE_BUCKET = "GROUP_DELETE"


# --- indexes -------------------------------------------------------------------------------

class PendingJoinRequestsIndex(GlobalSecondaryIndex):
    """An owner's pending requests for one group, oldest first (sparse on PendingKey)."""

    class Meta:
        index_name = "PendingJoinRequestsIndex"
        projection = AllProjection()

    PendingKey = UnicodeAttribute(hash_key=True)
    CreatedAt = UnicodeAttribute(range_key=True)


class UserPendingJoinRequestsIndex(GlobalSecondaryIndex):
    """An applicant's pending requests across groups (sparse on UserPendingKey)."""

    class Meta:
        index_name = "UserPendingJoinRequestsIndex"
        projection = AllProjection()

    UserPendingKey = UnicodeAttribute(hash_key=True)
    GroupId = UnicodeAttribute(range_key=True)


class GroupExpensesIndex(GlobalSecondaryIndex):
    """Expense heads of a group by date then creation (sparse on ExpenseSortKey)."""

    class Meta:
        index_name = "GroupExpensesIndex"
        projection = AllProjection()

    GroupId = UnicodeAttribute(hash_key=True)
    ExpenseSortKey = UnicodeAttribute(range_key=True)


class ExpenseIdIndex(GlobalSecondaryIndex):
    """ExpenseId -> (GroupId, SK). KEYS_ONLY: query it without the polymorphic filter."""

    class Meta:
        index_name = "ExpenseIdIndex"
        projection = KeysOnlyProjection()

    ExpenseId = UnicodeAttribute(hash_key=True)


class UserParticipantsIndex(GlobalSecondaryIndex):
    """(UserId, GroupId) -> ParticipantId, Role: the authorization hot path and home screen."""

    class Meta:
        index_name = "UserParticipantsIndex"
        # EntityType must be projected or PynamoDB's discriminator filter drops every row.
        projection = IncludeProjection(["EntityType", "ParticipantId", "Role"])

    UserId = UnicodeAttribute(hash_key=True)
    GroupId = UnicodeAttribute(range_key=True)


class DueRecurringExpensesIndex(GlobalSecondaryIndex):
    """Active recurring templates by next run (sparse on DueBucket)."""

    class Meta:
        index_name = "DueRecurringExpensesIndex"
        projection = AllProjection()

    DueBucket = UnicodeAttribute(hash_key=True)
    NextRunAt = UnicodeAttribute(range_key=True)


# --- base model ----------------------------------------------------------------------------

@table("groups")
class GroupItem(RawAccess, Model):
    """Every GroupData row."""

    class Meta:
        table_name = "groups"

    GroupId = UnicodeAttribute(hash_key=True)
    SK = UnicodeAttribute(range_key=True)
    EntityType = DiscriminatorAttribute()
    CreatedAt = UnicodeAttribute(null=True)
    UpdatedAt = UnicodeAttribute(null=True)
    # Sparse index keys: declared here so create_table emits every index; only some kinds set them.
    PendingKey = UnicodeAttribute(null=True)
    UserPendingKey = UnicodeAttribute(null=True)
    ExpenseSortKey = UnicodeAttribute(null=True)
    ExpenseId = UnicodeAttribute(null=True)
    UserId = UnicodeAttribute(null=True)
    DueBucket = UnicodeAttribute(null=True)
    NextRunAt = UnicodeAttribute(null=True)

    pending_join_requests = PendingJoinRequestsIndex()
    user_pending_join_requests = UserPendingJoinRequestsIndex()
    group_expenses = GroupExpensesIndex()
    expense_ids = ExpenseIdIndex()
    user_participants = UserParticipantsIndex()
    due_recurring = DueRecurringExpensesIndex()

    @classmethod
    def partition(cls, group_id: str, prefix: Optional[str] = None, **kwargs) -> Iterator["GroupItem"]:
        """Rows of one group, optionally narrowed to a sort-key prefix."""
        condition = cls.SK.startswith(prefix) if prefix else None
        return cls.query(group_id, condition, **kwargs)


class Group(GroupItem, discriminator="GROUP"):
    """The group head. Status DELETING means the group is gone for every reader."""

    Name = UnicodeAttribute()
    Currency = UnicodeAttribute()
    CreatedBy = UnicodeAttribute()
    OwnerCount = NumberAttribute(null=True)
    # Users and guests; absent on groups created before the cap (healed on first change).
    ParticipantCount = NumberAttribute(null=True)
    Status = UnicodeAttribute(default="ACTIVE")

    @staticmethod
    def key(group_id: str) -> tuple:
        return group_id, META

    @classmethod
    def pending_deletes(cls, until: str, **kwargs) -> Iterator["Group"]:
        """Tombstoned heads whose sweep is due to be resumed (DueRecurringExpensesIndex)."""
        return cls.due_recurring.query(DELETE_BUCKET, cls.NextRunAt <= until, **kwargs)


class Invite(GroupItem, discriminator="INVITE"):
    """The group's invite link settings; Code is a rotatable secret."""

    Enabled = BooleanAttribute(default=True)
    Code = UnicodeAttribute()
    DefaultRole = UnicodeAttribute(default="MEMBER")

    @staticmethod
    def key(group_id: str) -> tuple:
        return group_id, INVITE


class JoinRequest(GroupItem, discriminator="JOINREQ"):
    """A request to join; PendingKey/UserPendingKey exist only while PENDING."""

    RequestId = UnicodeAttribute()
    ApplicantUserId = UnicodeAttribute()
    ApplicantDisplayName = UnicodeAttribute(null=True)
    Mode = UnicodeAttribute()
    TargetParticipantId = UnicodeAttribute(null=True)
    ProposedRole = UnicodeAttribute(default="MEMBER")
    FinalRole = UnicodeAttribute(null=True)
    Status = UnicodeAttribute(default="PENDING")
    Message = UnicodeAttribute(null=True)
    DecidedAt = UnicodeAttribute(null=True)
    DecidedBy = UnicodeAttribute(null=True)
    ParticipantId = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(request_id: str) -> str:
        return JOINREQ_PREFIX + request_id

    @classmethod
    def pending_for_group(cls, group_id: str, **kwargs) -> Iterator["JoinRequest"]:
        return cls.pending_join_requests.query(group_id, **kwargs)

    @classmethod
    def pending_for_applicant(cls, user_id: str, group_id: Optional[str] = None,
                              **kwargs) -> Iterator["JoinRequest"]:
        condition = cls.GroupId == group_id if group_id else None
        return cls.user_pending_join_requests.query(user_id, condition, **kwargs)


class JoinLock(GroupItem, discriminator="JOINREQ_LOCK"):
    """One per applicant: PENDING while a request is open, DENIED after a denial."""

    LockType = UnicodeAttribute()
    RequestId = UnicodeAttribute()

    @staticmethod
    def sort_key(user_id: str) -> str:
        return JOINLOCK_PREFIX + user_id


class Participant(GroupItem, discriminator="PARTICIPANT"):
    """Someone who can appear in expenses: a USER, or a GUEST that may later be claimed."""

    ParticipantId = UnicodeAttribute()
    Type = UnicodeAttribute()
    DisplayName = UnicodeAttribute()
    Role = UnicodeAttribute()
    ClaimedAt = UnicodeAttribute(null=True)
    InvitedUserId = UnicodeAttribute(null=True)
    InviteExpiresAt = UnicodeAttribute(null=True)
    TransferTarget = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(participant_id: str) -> str:
        return PARTICIPANT_PREFIX + participant_id

    @classmethod
    def roster(cls, group_id: str, **kwargs) -> Iterator["Participant"]:
        return cls.query(group_id, cls.SK.startswith(PARTICIPANT_PREFIX), **kwargs)

    @classmethod
    def memberships(cls, user_id: str, group_id: Optional[str] = None,
                    **kwargs) -> Iterator["Participant"]:
        """A user's USER participants (projection: ParticipantId, Role, keys)."""
        condition = cls.GroupId == group_id if group_id else None
        return cls.user_participants.query(user_id, condition, **kwargs)


class UserMember(GroupItem, discriminator="USERMEMBER"):
    """Uniqueness guard: at most one USER participant per (group, user).

    It mirrors the participant's Role (changed in the same transaction as the participant),
    so authorization is one consistent BatchGetItem of the head and this row."""

    ParticipantId = UnicodeAttribute()
    Role = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(user_id: str) -> str:
        return USERMEMBER_PREFIX + user_id


class PaymentMap(MapAttribute):
    ParticipantId = UnicodeAttribute()
    Amount = NumberAttribute()


class SplitMap(MapAttribute):
    ParticipantId = UnicodeAttribute()
    Value = NumberAttribute(default=0)
    Amount = NumberAttribute()


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
    Version = NumberAttribute(default=1)
    CreatedBy = UnicodeAttribute(null=True)
    UpdatedBy = UnicodeAttribute(null=True)
    RecurringId = UnicodeAttribute(null=True)
    RecurringSlot = UnicodeAttribute(null=True)
    # Bumped by every comment create in the same transaction; the delete cascade's final
    # transaction conditions on it, so a comment racing the delete restarts the sweep.
    CommentSeq = NumberAttribute(null=True)

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
    def listing(cls, group_id: str, condition=None, **kwargs) -> Iterator["Expense"]:
        """Newest first by date then creation, via GroupExpensesIndex."""
        return cls.group_expenses.query(group_id, condition, scan_index_forward=False, **kwargs)

    @classmethod
    def locate(cls, expense_id: str) -> Optional[tuple]:
        """(GroupId, SK) of an expense head via the KEYS_ONLY ExpenseIdIndex, or None.

        Queried through the raw connection: a polymorphic query would add an EntityType
        filter that a KEYS_ONLY projection cannot satisfy."""
        data = cls._get_connection().query(expense_id, index_name=ExpenseIdIndex.Meta.index_name,
                                           limit=1)
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


class ExpenseTemplateMap(MapAttribute):
    Description = UnicodeAttribute()
    Category = UnicodeAttribute(null=True)
    Amount = NumberAttribute()
    Payments = ListAttribute(of=PaymentMap)
    Items = ListAttribute(of=ItemMap)


class RecurringExpense(GroupItem, discriminator="RECURRING_EXPENSE"):
    """A recurring template; DueBucket is set only while active, so paused rows leave the index.

    NextSlot is the next occurrence date (in TimeZone) and NextRunAt its local midnight in UTC.
    While a tick holds a slot, ClaimedSlot names it and NextRunAt is the claim's lease expiry,
    so a tick killed mid-slot leaves the row due again once the lease runs out."""

    RecurringId = UnicodeAttribute()
    Template = ExpenseTemplateMap()
    Currency = UnicodeAttribute(null=True)
    Frequency = UnicodeAttribute()
    Interval = NumberAttribute(default=1)
    StartDate = UnicodeAttribute()
    EndDate = UnicodeAttribute(null=True)
    Count = NumberAttribute(null=True)
    TimeZone = UnicodeAttribute(default="UTC")
    Paused = BooleanAttribute(default=False)
    NextSlot = UnicodeAttribute(null=True)
    ClaimedSlot = UnicodeAttribute(null=True)
    LastSlot = UnicodeAttribute(null=True)
    ReminderSlot = UnicodeAttribute(null=True)
    CreatedBy = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(recurring_id: str) -> str:
        return RECURRING_PREFIX + recurring_id

    @staticmethod
    def bucket_of(group_id: str) -> str:
        """The due-index partition of a group's templates (stable across processes)."""
        digest = hashlib.sha256(group_id.encode()).digest()
        return f"{DUE_BUCKET_PREFIX}{int.from_bytes(digest[:4], 'big') % DUE_BUCKETS}"

    @staticmethod
    def buckets() -> list:
        return [f"{DUE_BUCKET_PREFIX}{n}" for n in range(DUE_BUCKETS)]

    @classmethod
    def due_keys(cls, group_id: str, next_run_at: Optional[str]) -> dict:
        """Constructor attributes: in the due index at ``next_run_at``, or out of it (None)."""
        if next_run_at is None:
            return {"DueBucket": None, "NextRunAt": None}
        return {"DueBucket": cls.bucket_of(group_id), "NextRunAt": next_run_at}

    @classmethod
    def due_actions(cls, group_id: str, next_run_at: Optional[str]) -> list:
        """Update actions putting the row in the due index at ``next_run_at`` (None: out)."""
        if next_run_at is None:
            return [cls.DueBucket.remove(), cls.NextRunAt.remove()]
        return [cls.DueBucket.set(cls.bucket_of(group_id)), cls.NextRunAt.set(next_run_at)]

    @classmethod
    def due_page(cls, bucket: str, until: str, *, limit: int, start_key: Optional[dict] = None):
        """One bounded page of a bucket's rows with NextRunAt <= until, oldest first."""
        return cls.due_recurring.query(bucket, cls.NextRunAt <= until, limit=limit,
                                       last_evaluated_key=start_key)

    @classmethod
    def upcoming(cls, bucket: str, after: str, until: str, **kwargs) -> Iterator["RecurringExpense"]:
        """A bucket's rows whose next run falls in (after, until] (reminders)."""
        return cls.due_recurring.query(bucket, cls.NextRunAt.between(after + "\x00", until),
                                       **kwargs)


class Settlement(GroupItem, discriminator="SETTLEMENT"):
    """A direct payment from PayerId to PayeeId."""

    SettlementId = UnicodeAttribute()
    PayerId = UnicodeAttribute()
    PayeeId = UnicodeAttribute()
    Amount = NumberAttribute()
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
