"""A user's account row and daily developer usage."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import BooleanAttribute, NumberAttribute, UnicodeAttribute

from models import pynamodb_adapter
from models.users.keys import ACCOUNT_DELETE, DELETING, PROFILE, USAGE_PREFIX
from models.users.base import ScanRecoveryIndex, UserItem


class Profile(UserItem, discriminator="PROFILE"):
    """The account. IsTestAccount is present only when true."""

    Email = UnicodeAttribute()
    DisplayName = UnicodeAttribute()
    IsTestAccount = BooleanAttribute(null=True)
    Handle = UnicodeAttribute(null=True)
    Discoverable = BooleanAttribute(default=False)
    DefaultCurrency = UnicodeAttribute(null=True)
    # The BCP 47 tag every text written for this user is rendered in (app.core.i18n); absent: en.
    Locale = UnicodeAttribute(null=True)
    # The identity provider vouched for Email (Cognito's email_verified; local sign-in: true).
    # No e-mail is ever sent to an address without it.
    EmailVerified = BooleanAttribute(null=True)
    # Counts renames: the group rosters mirror DisplayName at this version (app/users/mirror.py).
    NameVersion = NumberAttribute(null=True)
    # DELETING once account deletion has begun: the account is gone for every request, and
    # the row stays (the deletion's tombstone, removed last) until the sweep finishes.
    Status = UnicodeAttribute(null=True)
    # The step a deletion run stopped in when its budget ran out: the next run starts there.
    DeletionStep = UnicodeAttribute(null=True)

    @staticmethod
    def key(user_id: str) -> tuple:
        return user_id, PROFILE

    @property
    def deleting(self) -> bool:
        return self.Status == DELETING

    @classmethod
    def live_condition(cls):
        """The profile exists and no deletion has begun (for a ConditionCheck on it)."""
        return cls.UserId.exists() & (cls.Status.does_not_exist() | (cls.Status != DELETING))

    @classmethod
    def pending_deletions(cls, until: str, limit: int) -> list:
        """UserIds of profiles whose deletion is due to be resumed, oldest first.

        ScanRecoveryIndex projects keys only (no EntityType), so this reads it raw."""
        page = pynamodb_adapter.table_connection(cls).query(
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
