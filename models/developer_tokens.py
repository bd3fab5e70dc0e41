"""DeveloperTokens: personal access tokens, idempotency records and daily developer budgets."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import (DiscriminatorAttribute, MapAttribute, NumberAttribute,
                                 UnicodeAttribute, UnicodeSetAttribute)
from pynamodb.indexes import GlobalSecondaryIndex, IncludeProjection
from pynamodb.models import Model

from models.base import RawAccess, table

TOKEN = "TOKEN"
IDEMPOTENCY_PREFIX = "IDEMPOTENCY#"
APP_CREDENTIAL_PREFIX = "APP#"
DEV_BUDGET_PREFIX = "DEV#USER#"
TOKEN_COUNT_SK = "TOKENS"  # beside the daily budgets (whose sort keys are dates)


class OwnerTokensIndex(GlobalSecondaryIndex):
    """One owner's tokens, by creation; never projects SecretHash."""

    class Meta:
        index_name = "OwnerTokensIndex"
        projection = IncludeProjection(["EntityType", "Name", "Scopes", "ExpiresAt", "RevokedAt",
                                        "LastUsedAt", "Prefix"])

    UserId = UnicodeAttribute(hash_key=True)
    CreatedAt = UnicodeAttribute(range_key=True)


@table("developer-tokens")
class DeveloperItem(RawAccess, Model):
    """Every DeveloperTokens row."""

    class Meta:
        table_name = "developer-tokens"

    TokenId = UnicodeAttribute(hash_key=True)
    SK = UnicodeAttribute(range_key=True)
    EntityType = DiscriminatorAttribute()
    UserId = UnicodeAttribute(null=True)  # TOKEN rows only: keeps OwnerTokensIndex sparse
    CreatedAt = UnicodeAttribute(null=True)

    by_owner = OwnerTokensIndex()


class AccessToken(DeveloperItem, discriminator="TOKEN"):
    """A personal access token. ExpiresAt is an ISO string, so the table's TTL never reaps it."""

    Name = UnicodeAttribute()
    Prefix = UnicodeAttribute(null=True)
    SecretHash = UnicodeAttribute()
    Scopes = UnicodeSetAttribute()
    ExpiresAt = UnicodeAttribute()
    RevokedAt = UnicodeAttribute(null=True)
    LastUsedAt = UnicodeAttribute(null=True)

    @staticmethod
    def key(token_id: str) -> tuple:
        return token_id, TOKEN

    @classmethod
    def for_owner(cls, user_id: str, **kwargs) -> Iterator["AccessToken"]:
        return cls.by_owner.query(user_id, scan_index_forward=False, **kwargs)


class IdempotencyRecord(DeveloperItem, discriminator="IDEMPOTENCY"):
    """A create request seen under one credential; ExpiresAt (epoch seconds) is the TTL."""

    RequestHash = UnicodeAttribute()
    Status = UnicodeAttribute()  # IN_PROGRESS | COMPLETED
    ResponseStatus = NumberAttribute(null=True)
    ResponseBody = UnicodeAttribute(null=True)
    ResponseHeaders = MapAttribute(null=True)
    ExpiresAt = NumberAttribute()
    LockedUntil = NumberAttribute(null=True)

    @staticmethod
    def key(credential_id: str, idempotency_key: str) -> tuple:
        return credential_id, IDEMPOTENCY_PREFIX + idempotency_key

    @staticmethod
    def app_credential(user_id: str) -> str:
        """Signed-in app users keep their records under APP#<userId>."""
        return APP_CREDENTIAL_PREFIX + user_id


class DeveloperBudget(DeveloperItem, discriminator="DEV_BUDGET"):
    """Per-user daily budget shared by PAT and MCP activity."""

    Requests = NumberAttribute(default=0)
    Creates = NumberAttribute(default=0)
    ExpiresAt = NumberAttribute(null=True)  # TTL (unix seconds): a few days after the day ends

    @staticmethod
    def key(user_id: str, day: str) -> tuple:
        return DEV_BUDGET_PREFIX + user_id, day


class TokenCount(DeveloperItem, discriminator="TOKEN_COUNT"):
    """How many of one owner's tokens hold a slot of the per-account cap (the budget's
    partition, so it goes with the owner's developer rows).

    Token creation ADDs 1 on the condition ``Live < cap`` in the same transaction as the
    token's put, so parallel creates can never pass the cap; revoking a token that has not
    expired gives its slot back. Expired tokens are released by a recount (see
    app.developer.tokens), guarded by the value it read."""

    Live = NumberAttribute(default=0)

    @staticmethod
    def key(user_id: str) -> tuple:
        return DEV_BUDGET_PREFIX + user_id, TOKEN_COUNT_SK
