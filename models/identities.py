"""Identities: ``<provider>#<subject>`` -> UserId; the conditional create is the uniqueness guard."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import BooleanAttribute, DiscriminatorAttribute, UnicodeAttribute
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model

from models.base import table

COGNITO = "cognito"
LOCAL = "local"


class UserIdentitiesIndex(GlobalSecondaryIndex):
    """Every identity linked to one user, oldest first."""

    class Meta:
        index_name = "UserIdentitiesIndex"
        projection = AllProjection()

    UserId = UnicodeAttribute(hash_key=True)
    CreatedAt = UnicodeAttribute(range_key=True)


@table("identities")
class IdentityItem(Model):
    """Every Identities row."""

    class Meta:
        table_name = "identities"

    IdentityKey = UnicodeAttribute(hash_key=True)
    EntityType = DiscriminatorAttribute()
    UserId = UnicodeAttribute()
    CreatedAt = UnicodeAttribute()

    by_user = UserIdentitiesIndex()


class Identity(IdentityItem, discriminator="IDENTITY"):
    """One external identity of a user.

    Verified is true for rows written by a sign-in (the IdP vouched for them) and false for
    rows a user linked by hand: an unverified row never grants sign-in and a real sign-in
    with that identity replaces it."""

    Provider = UnicodeAttribute()
    Subject = UnicodeAttribute()
    Verified = BooleanAttribute(null=True)
    # Set in the same transaction that marks the profile DELETING: the authenticator reads
    # this row anyway on a cache miss, so refusing a deleted account costs no extra call.
    Deleting = BooleanAttribute(null=True)

    @staticmethod
    def key(provider: str, subject: str) -> str:
        """Providers are lowercase; the subject is kept as the IdP issued it."""
        return f"{provider.lower()}#{subject}"

    @classmethod
    def for_user(cls, user_id: str) -> Iterator["Identity"]:
        return cls.by_user.query(user_id)
