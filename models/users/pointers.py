"""Pointers in a user's partition to rows elsewhere that name the user (for account
deletion), and the invitations the user sent."""
from __future__ import annotations

import hashlib
from typing import Iterator

from pynamodb.attributes import UnicodeAttribute

from models import pynamodb_adapter
from models.users.keys import (JOIN_REQUEST_POINTER_PREFIX, SENT_INVITATION_PREFIX,
                               IMPORT_POINTER_PREFIX, INVITE_EXPIRY, INVITE_EXPIRY_SHARDS)
from models.users.base import ScanRecoveryIndex, UserItem, _pointer_pages


class JoinRequestPointer(UserItem, discriminator="JOINREQ_POINTER"):
    """Written with the join request it names (same transaction, applicant's partition):
    account deletion follows it to the request and the applicant's lock in that group,
    whatever became of the request (pending, decided, or in a group the user left)."""

    GroupId = UnicodeAttribute()
    RequestId = UnicodeAttribute()

    @staticmethod
    def sort_key(group_id: str, request_id: str) -> str:
        return f"{JOIN_REQUEST_POINTER_PREFIX}{group_id}#{request_id}"

    @classmethod
    def build(cls, user_id: str, group_id: str, request_id: str) -> "JoinRequestPointer":
        return cls(user_id, cls.sort_key(group_id, request_id), GroupId=group_id,
                   RequestId=request_id)

    @classmethod
    def pages_of(cls, user_id: str, page_size: int) -> Iterator[list]:
        return _pointer_pages(cls, user_id, JOIN_REQUEST_POINTER_PREFIX, page_size)


class ImportPointer(UserItem, discriminator="IMPORT_POINTER"):
    """Written with an import's group head (same transaction): GET /imports/{importId}
    finds the import's group from the importer's own partition (one GetItem)."""

    GroupId = UnicodeAttribute()

    @staticmethod
    def sort_key(import_id: str) -> str:
        return IMPORT_POINTER_PREFIX + import_id


class SentInvitation(UserItem, discriminator="SENT_INVITE"):
    """Written with each direct invitation (same transaction, inviter's partition): account
    deletion withdraws what the user sent, and the expiry sweep finds due invitations
    through ScanRecoveryIndex (RecoveryState ``INVITE_EXPIRY#<shard>``, due at expiry)."""

    GroupId = UnicodeAttribute()
    InviteeUserId = UnicodeAttribute()

    @staticmethod
    def sort_key(group_id: str, invitee_user_id: str) -> str:
        return f"{SENT_INVITATION_PREFIX}{group_id}#{invitee_user_id}"

    @staticmethod
    def parse_sort_key(sort_key: str) -> tuple:
        """(group id, invitee user id) of a pointer's sort key."""
        group_id, invitee = sort_key[len(SENT_INVITATION_PREFIX):].split("#", 1)
        return group_id, invitee

    @staticmethod
    def shard_of(group_id: str, invitee_user_id: str) -> str:
        digest = hashlib.sha256(f"{group_id}#{invitee_user_id}".encode()).digest()
        return f"{INVITE_EXPIRY}#{int.from_bytes(digest[:4], 'big') % INVITE_EXPIRY_SHARDS}"

    @staticmethod
    def shards() -> list:
        return [f"{INVITE_EXPIRY}#{n}" for n in range(INVITE_EXPIRY_SHARDS)]

    @classmethod
    def build(cls, inviter_id: str, group_id: str, invitee_user_id: str,
              expires_at: str) -> "SentInvitation":
        return cls(inviter_id, cls.sort_key(group_id, invitee_user_id), GroupId=group_id,
                   InviteeUserId=invitee_user_id,
                   RecoveryState=cls.shard_of(group_id, invitee_user_id),
                   RecoveryDueAt=expires_at)

    @classmethod
    def pages_of(cls, user_id: str, page_size: int) -> Iterator[list]:
        return _pointer_pages(cls, user_id, SENT_INVITATION_PREFIX, page_size)

    @classmethod
    def due(cls, shard: str, until: str, limit: int) -> list:
        """(inviter id, sort key) of pointers due by ``until``, oldest first (one page; the
        index projects keys only, so this reads it raw)."""
        page = pynamodb_adapter.table_connection(cls).query(
            shard, range_key_condition=cls.RecoveryDueAt <= until,
            index_name=ScanRecoveryIndex.Meta.index_name, limit=limit)
        return [(item["UserId"]["S"], item["SK"]["S"]) for item in page.get("Items", [])]
