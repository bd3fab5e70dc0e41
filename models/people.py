"""People: handles, the discovery directory, friendships and direct group invitations."""
from __future__ import annotations

import unicodedata
from typing import Iterator, Optional

from pynamodb.attributes import DiscriminatorAttribute, UnicodeAttribute
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex, IncludeProjection
from pynamodb.models import Model

from models.base import RawAccess, table

HANDLE_PREFIX = "HANDLE#"
USER_PREFIX = "USER#"
DIRECTORY_PREFIX = "DIR#"
FRIEND_PREFIX = "FRIEND#"
GROUP_INVITE_PREFIX = "GROUPINVITE#"
CLAIM = "CLAIM"
# The searchable texts of one user; each is one directory row.
DIRECTORY_FIELDS = ("NAME", "HANDLE")
DIR_KEY_LENGTH = 2


def fold(text: str) -> str:
    """Search form of a name or handle: accents dropped, case folded, spaces collapsed.

    "Zoë", "ZOE" and "zoe" all fold to "zoe", so a prefix typed without accents finds them."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())


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
class PeopleItem(RawAccess, Model):
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
    def build(cls, user_id: str, field: str, text: str, *, display_name: str,
              handle: Optional[str]) -> "DirectoryEntry":
        """The row for one searchable text, with its index keys derived from that text."""
        folded = fold(text)
        return cls(*cls.key(user_id, field), UserId=user_id, DisplayName=display_name,
                   Handle=handle, DirKey=folded[:DIR_KEY_LENGTH], DirSort=f"{folded}#{user_id}")

    @classmethod
    def search(cls, query: str, **kwargs) -> Iterator["DirectoryEntry"]:
        """Rows whose folded text starts with the folded ``query`` (at least two characters)."""
        q = fold(query)
        return cls.directory.query(q[:DIR_KEY_LENGTH], cls.DirSort.startswith(q), **kwargs)


class Friendship(PeopleItem, discriminator="FRIEND"):
    """One side of a friendship; both sides are written in one transaction."""

    FriendUserId = UnicodeAttribute()
    Status = UnicodeAttribute()  # OUTGOING | INCOMING | ACCEPTED
    UpdatedAt = UnicodeAttribute(null=True)

    @staticmethod
    def key(user_id: str, friend_user_id: str) -> tuple:
        return USER_PREFIX + user_id, FRIEND_PREFIX + friend_user_id

    @classmethod
    def of(cls, user_id: str, **kwargs) -> Iterator["Friendship"]:
        """Every friendship row of one user (any status)."""
        return cls.query(USER_PREFIX + user_id, cls.SK.startswith(FRIEND_PREFIX), **kwargs)

    @property
    def friend_id(self) -> str:
        """The other user, read from the sort key (which every row has)."""
        return self.SK[len(FRIEND_PREFIX):]


class GroupInvitation(PeopleItem, discriminator="GROUPINVITE"):
    """A direct invitation to a group, reserving a GUEST participant for the invitee."""

    Role = UnicodeAttribute()
    ParticipantId = UnicodeAttribute()  # the reserved GUEST; every invitation has one
    InvitedBy = UnicodeAttribute()
    ExpiresAt = UnicodeAttribute()
    GroupName = UnicodeAttribute(null=True)

    @staticmethod
    def key(invitee_user_id: str, group_id: str) -> tuple:
        return USER_PREFIX + invitee_user_id, GROUP_INVITE_PREFIX + group_id

    @classmethod
    def build(cls, invitee_user_id: str, group_id: str, **attributes) -> "GroupInvitation":
        """A new invitation; its GroupInvitesIndex keys are derived from its own key parts."""
        return cls(*cls.key(invitee_user_id, group_id), GroupId=group_id,
                   InviteeUserId=invitee_user_id, **attributes)

    @classmethod
    def for_invitee(cls, user_id: str, **kwargs) -> Iterator["GroupInvitation"]:
        return cls.query(USER_PREFIX + user_id, cls.SK.startswith(GROUP_INVITE_PREFIX), **kwargs)

    @classmethod
    def for_group(cls, group_id: str, **kwargs) -> Iterator["GroupInvitation"]:
        """A group's invitations by invitee (GroupInvitesIndex; eventually consistent)."""
        return cls.group_invites.query(group_id, **kwargs)

