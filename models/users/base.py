"""The Users table: its base row and the ScanRecoveryIndex."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import DiscriminatorAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.indexes import GlobalSecondaryIndex, KeysOnlyProjection
from pynamodb.models import Model

from models.base import RawAccess, table


class ScanRecoveryIndex(GlobalSecondaryIndex):
    """Rows whose background work must be recovered, by due time (sparse)."""

    class Meta:
        index_name = "ScanRecoveryIndex"
        projection = KeysOnlyProjection()

    RecoveryState = UnicodeAttribute(hash_key=True)
    RecoveryDueAt = UnicodeAttribute(range_key=True)


@table("users")
class UserItem(RawAccess, Model):
    """Every Users row."""

    class Meta:
        table_name = "users"

    UserId = UnicodeAttribute(hash_key=True)
    SK = UnicodeAttribute(range_key=True)
    EntityType = DiscriminatorAttribute()
    CreatedAt = UnicodeAttribute(null=True)
    UpdatedAt = UnicodeAttribute(null=True)
    RecoveryState = UnicodeAttribute(null=True)
    RecoveryDueAt = UnicodeAttribute(null=True)
    ExpiresAt = NumberAttribute(null=True)  # TTL (unix seconds)

    scan_recovery = ScanRecoveryIndex()


def _pointer_pages(cls, user_id: str, prefix: str, page_size: int) -> Iterator[list]:
    """One user's rows under ``prefix``, a page at a time (strongly consistent)."""
    last = None
    while True:
        rows = cls.query(user_id, cls.SK.startswith(prefix), limit=page_size,
                         consistent_read=True, last_evaluated_key=last)
        page = list(rows)
        yield page
        last = rows.last_evaluated_key
        if not last:
            return
