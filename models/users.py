"""Users: one partition per user — profile, daily developer usage, chat credit, MCP grants."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import (BooleanAttribute, DiscriminatorAttribute, MapAttribute,
                                 NumberAttribute, UnicodeAttribute)
from pynamodb.indexes import GlobalSecondaryIndex, KeysOnlyProjection
from pynamodb.models import Model

from models.base import RawAccess, table

PROFILE = "PROFILE"
USAGE_PREFIX = "USAGE#"
CHAT_BALANCE = "BALANCE"
LEDGER_PREFIX = "LEDGER#"
CHAT_PREFIX = "CHAT#"
MCP_GRANT_PREFIX = "MCPGRANT#"
MCP_CLEANUP_PREFIX = "MCPCLEANUP#"
DELETING = "DELETING"
# ScanRecoveryIndex bucket of profiles whose deletion a crash may have left half done.
ACCOUNT_DELETE = "ACCOUNT_DELETE"


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


class Profile(UserItem, discriminator="PROFILE"):
    """The account. IsTestAccount is present only when true."""

    Email = UnicodeAttribute()
    DisplayName = UnicodeAttribute()
    IsTestAccount = BooleanAttribute(null=True)
    Handle = UnicodeAttribute(null=True)
    Discoverable = BooleanAttribute(default=False)
    DefaultCurrency = UnicodeAttribute(null=True)
    # DELETING once account deletion has begun: the account is gone for every request, and
    # the row stays (the deletion's tombstone, removed last) until the sweep finishes.
    Status = UnicodeAttribute(null=True)

    @staticmethod
    def key(user_id: str) -> tuple:
        return user_id, PROFILE

    @property
    def deleting(self) -> bool:
        return self.Status == DELETING

    @classmethod
    def pending_deletions(cls, until: str, limit: int) -> list:
        """UserIds of profiles whose deletion is due to be resumed, oldest first.

        ScanRecoveryIndex projects keys only (no EntityType), so this reads it raw."""
        page = cls._get_connection().query(
            ACCOUNT_DELETE, range_key_condition=cls.RecoveryDueAt <= until,
            index_name=ScanRecoveryIndex.Meta.index_name, limit=limit)
        return [item["UserId"]["S"] for item in page.get("Items", [])]


class Usage(UserItem, discriminator="USAGE"):
    """Requests made with one developer credential on one UTC day."""

    TokenId = UnicodeAttribute()
    Day = UnicodeAttribute()
    Requests = NumberAttribute(default=0)
    Creates = NumberAttribute(default=0)
    Errors = NumberAttribute(default=0)
    Name = UnicodeAttribute(null=True)  # the token's (or MCP client's) name when first counted

    @staticmethod
    def sort_key(day: str, token_id: str) -> str:
        return f"{USAGE_PREFIX}{day}#{token_id}"

    @classmethod
    def between(cls, user_id: str, first_day: str, last_day: str) -> Iterator["Usage"]:
        return cls.query(user_id, cls.SK.between(f"{USAGE_PREFIX}{first_day}",
                                                 f"{USAGE_PREFIX}{last_day}#\uffff"))


class ChatBalance(UserItem, discriminator="CHAT_BALANCE"):
    """Chat-assistant credit remaining."""

    Credits = NumberAttribute(default=0)
    Version = NumberAttribute(default=0)


class LedgerEntry(UserItem, discriminator="LEDGER"):
    """One movement of chat credit."""

    Delta = NumberAttribute()
    Reason = UnicodeAttribute()
    SessionId = UnicodeAttribute(null=True)


class ChatSession(UserItem, discriminator="CHAT"):
    """An expense-drafting chat session."""

    Status = UnicodeAttribute()
    GroupId = UnicodeAttribute(null=True)
    Draft = MapAttribute(null=True)
    Version = NumberAttribute(default=0)


class McpGrant(UserItem, discriminator="MCP_GRANT"):
    """An MCP connector grant (status checked on every request)."""

    GrantId = UnicodeAttribute()
    Status = UnicodeAttribute()
    Client = UnicodeAttribute(null=True)


class McpCleanupPointer(UserItem, discriminator="MCP_CLEANUP"):
    """In the grant owner's partition: the key of one Users-table row the MCP flow wrote in
    another partition (a code claim, a refresh-token hash, a token family). Account deletion
    follows these before it sweeps the user's own partition, deleting each target before its
    pointer so a retried deletion never loses track of a row."""

    TargetUserId = UnicodeAttribute()
    TargetSK = UnicodeAttribute()

    @staticmethod
    def sort_key(grant_id: str, suffix: str) -> str:
        return f"{MCP_CLEANUP_PREFIX}{grant_id}#{suffix}"

    @classmethod
    def pages_of(cls, user_id: str, page_size: int) -> Iterator[list]:
        """A user's pointers, a page at a time (strongly consistent)."""
        last = None
        while True:
            rows = cls.query(user_id, cls.SK.startswith(MCP_CLEANUP_PREFIX), limit=page_size,
                             consistent_read=True, last_evaluated_key=last)
            page = list(rows)
            yield page
            last = rows.last_evaluated_key
            if not last:
                return
