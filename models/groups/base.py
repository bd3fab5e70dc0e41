"""GroupData's base model and its indexes, each named after the access pattern it serves."""
from __future__ import annotations

from typing import Iterator, Optional

from pynamodb.attributes import DiscriminatorAttribute, UnicodeAttribute
from pynamodb.indexes import (AllProjection, GlobalSecondaryIndex, IncludeProjection,
                              KeysOnlyProjection)
from pynamodb.models import Model

from models.base import RawAccess, table


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
    """Every row of a group that moves money (expense and income heads, settlements,
    conversions) by date then creation (sparse on ExpenseSortKey). The expense listing reads
    it through the Expense class, whose discriminator filter skips the few settlement and
    conversion rows; a participant's statement reads every kind. One index for both (they
    order the same rows the same way): a money write pays one index entry, not two."""

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

    @staticmethod
    def statement_key(date: str, created_at: str, row_id: str) -> str:
        """A money row's place in GroupExpensesIndex (``ExpenseSortKey``): by date, then
        creation."""
        return f"{date}#{created_at}#{row_id}"

    @classmethod
    def statement_page(cls, group_id: str, **kwargs) -> Iterator["GroupItem"]:
        """Money rows of a group, oldest first by date then creation (GroupExpensesIndex,
        every kind)."""
        return cls.group_expenses.query(group_id, scan_index_forward=True, **kwargs)

    @classmethod
    def partition(cls, group_id: str, prefix: Optional[str] = None, **kwargs) -> Iterator["GroupItem"]:
        """Rows of one group, optionally narrowed to a sort-key prefix."""
        condition = cls.SK.startswith(prefix) if prefix else None
        return cls.query(group_id, condition, **kwargs)
