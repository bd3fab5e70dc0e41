"""People: handles, the discovery directory, friendships and direct group invitations."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import DiscriminatorAttribute, UnicodeAttribute
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex, IncludeProjection
from pynamodb.models import Model

from models.base import table

HANDLE_PREFIX = "HANDLE#"
USER_PREFIX = "USER#"
DIRECTORY_PREFIX = "DIR#"
FRIEND_PREFIX = "FRIEND#"
GROUP_INVITE_PREFIX = "GROUPINVITE#"
CLAIM = "CLAIM"


class DirectoryIndex(GlobalSecondaryIndex):
    """Prefix search: DirKey = first two letters, begins_with(DirSort, q)."""

    class Meta:
        index_name = "DirectoryIndex"
        projection = IncludeProjection(["EntityType", "UserId", "DisplayName", "Handle"])

    DirKey = UnicodeAttribute(hash_key=True)
    DirSort = UnicodeAttribute(range_key=True)


class GroupInvitesIndex(GlobalSecondaryIndex):
    """A group's pending direct invitations."""

    class Meta:
        index_name = "GroupInvitesIndex"
        projection = AllProjection()

    GroupId = UnicodeAttribute(hash_key=True)
    InviteeUserId = UnicodeAttribute(range_key=True)


@table("people")
class PeopleItem(Model):
    """Every People row."""

    class Meta:
        table_name = "people"

    PK = UnicodeAttribute(hash_key=True)
    SK = UnicodeAttribute(range_key=True)
    EntityType = DiscriminatorAttribute()
    CreatedAt = UnicodeAttribute(null=True)
    DirKey = UnicodeAttribute(null=True)
    DirSort = UnicodeAttribute(null=True)
    GroupId = UnicodeAttribute(null=True)
    InviteeUserId = UnicodeAttribute(null=True)

    directory = DirectoryIndex()
    group_invites = GroupInvitesIndex()


class HandleClaim(PeopleItem, discriminator="HANDLE"):
    """Uniqueness row for a handle."""

    UserId = UnicodeAttribute()

    @staticmethod
    def key(handle: str) -> tuple:
        return HANDLE_PREFIX + handle, CLAIM


class DirectoryEntry(PeopleItem, discriminator="DIRECTORY"):
    """A discoverable user's search entry (one per searchable name)."""

    UserId = UnicodeAttribute()
    DisplayName = UnicodeAttribute()
    Handle = UnicodeAttribute(null=True)

    @staticmethod
    def key(user_id: str, field: str) -> tuple:
        return USER_PREFIX + user_id, DIRECTORY_PREFIX + field

    @classmethod
    def search(cls, query: str, **kwargs) -> Iterator["DirectoryEntry"]:
        q = query.lower()
        return cls.directory.query(q[:2], cls.DirSort.startswith(q), **kwargs)


class Friendship(PeopleItem, discriminator="FRIEND"):
    """One side of a friendship; both sides are written in one transaction."""

    FriendUserId = UnicodeAttribute()
    Status = UnicodeAttribute()  # OUTGOING | INCOMING | ACCEPTED
    UpdatedAt = UnicodeAttribute(null=True)

    @staticmethod
    def key(user_id: str, friend_user_id: str) -> tuple:
        return USER_PREFIX + user_id, FRIEND_PREFIX + friend_user_id


class GroupInvitation(PeopleItem, discriminator="GROUPINVITE"):
    """A direct invitation to a group, reserving a GUEST participant for the invitee."""

    Role = UnicodeAttribute()
    ParticipantId = UnicodeAttribute(null=True)
    InvitedBy = UnicodeAttribute()
    ExpiresAt = UnicodeAttribute()

    @staticmethod
    def key(invitee_user_id: str, group_id: str) -> tuple:
        return USER_PREFIX + invitee_user_id, GROUP_INVITE_PREFIX + group_id
