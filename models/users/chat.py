"""Chat rows: credit balance and ledger, sessions, messages, drafts and work pointers."""
from __future__ import annotations

import hashlib
from typing import Iterator, Optional

from pynamodb.attributes import ListAttribute, NumberAttribute, UnicodeAttribute

from models.users.keys import (CHAT_BALANCE, LEDGER_PREFIX, CHAT_PREFIX, CHAT_WORK_PARTITION,
                               CHAT_WORK_SHARDS, MESSAGE_ROLE_SEGMENT, RECEIPT_SCAN_WORK)
from models.users.base import UserItem


class ChatBalance(UserItem, discriminator="CHAT_BALANCE"):
    """Chat-assistant credit: granted credit (kept) plus this month's free allowance left.

    Every change bumps Version and admission conditions on the version it read, so two
    messages admitted at once can never both spend the same credit."""

    Credits = NumberAttribute(default=0)  # granted by an admin (or refunded), never expires
    Free = NumberAttribute(default=0)  # what is left of Period's free allowance
    Period = UnicodeAttribute(null=True)  # YYYY-MM the allowance belongs to
    Messages = NumberAttribute(default=0)  # messages admitted in Period (a counter)
    Version = NumberAttribute(default=0)

    @staticmethod
    def key(user_id: str) -> tuple:
        return user_id, CHAT_BALANCE


class LedgerEntry(UserItem, discriminator="LEDGER"):
    """One movement of chat credit (``LEDGER#<at>#<entryId>``: newest first by a reverse query)."""

    Delta = NumberAttribute()
    Reason = UnicodeAttribute()
    SessionId = UnicodeAttribute(null=True)
    MessageId = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(at: str, entry_id: str) -> str:
        return f"{LEDGER_PREFIX}{at}#{entry_id}"

    @classmethod
    def newest_first(cls, user_id: str, *, limit: int, last_evaluated_key=None):
        return cls.query(user_id, cls.SK.startswith(LEDGER_PREFIX), scan_index_forward=False,
                         limit=limit, last_evaluated_key=last_evaluated_key,
                         consistent_read=True)


class ChatSession(UserItem, discriminator="CHAT"):
    """An expense-drafting chat session (``CHAT#<sessionId>``); its messages and drafts sort
    right after it (``CHAT#<sessionId>#M#…``, ``CHAT#<sessionId>#D#…``), so the whole
    session is one Query."""

    SessionId = UnicodeAttribute()
    GroupId = UnicodeAttribute(null=True)
    MessageCount = NumberAttribute(default=0)
    Version = NumberAttribute(default=0)

    @staticmethod
    def sort_key(session_id: str) -> str:
        return f"{CHAT_PREFIX}{session_id}"

    @classmethod
    def key(cls, user_id: str, session_id: str) -> tuple:
        return user_id, cls.sort_key(session_id)

    @staticmethod
    def rows_prefix(session_id: str) -> str:
        """The prefix of the session row and every message and draft of it."""
        return f"{CHAT_PREFIX}{session_id}"

    @classmethod
    def of_user(cls, user_id: str, *, limit: int, last_evaluated_key=None):
        """The user's sessions (message and draft rows are filtered out by EntityType)."""
        return cls.query(user_id, cls.SK.startswith(CHAT_PREFIX), limit=limit,
                         last_evaluated_key=last_evaluated_key, consistent_read=True)


class ChatMessage(UserItem, discriminator="CHAT_MESSAGE"):
    """One message of a session, ``CHAT#<sid>#M#<seq:06d>#<role>`` (USER ``0``, ASSISTANT
    ``1``), so a session's messages come back in order, each reply after its message. A USER message is PENDING until the
    worker claimed (WORKING, Version + 1) and finished it (DONE or FAILED)."""

    SessionId = UnicodeAttribute()
    MessageId = UnicodeAttribute()
    Role = UnicodeAttribute()
    Text = UnicodeAttribute()
    Status = UnicodeAttribute()
    Seq = NumberAttribute()
    Version = NumberAttribute(default=1)
    Cost = NumberAttribute(default=0)  # credits reserved at admission
    CostFree = NumberAttribute(default=0)  # the part of Cost taken from the free allowance
    Period = UnicodeAttribute(null=True)  # the allowance period CostFree came from
    ClaimedAt = UnicodeAttribute(null=True)
    WorkKey = UnicodeAttribute(null=True)  # (hash#range) of its work pointer while pending
    Questions = ListAttribute(of=UnicodeAttribute, null=True)  # ASSISTANT only
    Failure = UnicodeAttribute(null=True)  # a reason code, never model output
    Locale = UnicodeAttribute(null=True)  # USER: its writer's locale, which the reply is in

    @staticmethod
    def sort_key(session_id: str, seq: int, role: str) -> str:
        return f"{CHAT_PREFIX}{session_id}#M#{seq:06d}#{MESSAGE_ROLE_SEGMENT[role]}"

    def point_at(self, pointer: "ChatWork") -> None:
        self.WorkKey = f"{pointer.UserId}|{pointer.SK}"

    def work_pointer_key(self) -> Optional[tuple]:
        """(hash, range) of this message's work pointer while it has one."""
        return tuple(self.WorkKey.split("|", 1)) if self.WorkKey else None

    @classmethod
    def with_work_pointer(cls, user_id: str, page_size: int) -> Iterator["ChatMessage"]:
        """The user's messages still holding a work pointer (strongly consistent)."""
        return cls.query(user_id, cls.SK.startswith(CHAT_PREFIX),
                         filter_condition=cls.WorkKey.exists(), page_size=page_size,
                         consistent_read=True)


class ChatDraft(UserItem, discriminator="CHAT_DRAFT"):
    """A draft expense of a session (``CHAT#<sid>#D#<draftId>``). OPEN until confirmed
    (SAVED, with ExpenseId: the saved marker, written in the expense's own transaction) or
    discarded; a revision bumps Version."""

    SessionId = UnicodeAttribute()
    DraftId = UnicodeAttribute()
    GroupId = UnicodeAttribute()
    Status = UnicodeAttribute()
    Version = NumberAttribute(default=1)
    Body = UnicodeAttribute()  # the expense body (JSON, API field names)
    Participants = UnicodeAttribute()  # JSON [{participantId, displayName}]
    Facts = UnicodeAttribute(null=True)  # JSON: what the drafter understood (for revisions)
    Questions = ListAttribute(of=UnicodeAttribute, null=True)
    ExpenseId = UnicodeAttribute(null=True)
    # What confirming does: EXPENSE (absent) creates the expense Body holds; HOUSEHOLD sets
    # the households Body lists ([{participantId, household}], household null: none).
    Kind = UnicodeAttribute(null=True)

    @property
    def kind(self) -> str:
        return self.Kind or "EXPENSE"

    @property
    def body_name(self) -> str:
        """What Body holds, as the API names it: ``expense`` or ``households``."""
        return "households" if self.kind == "HOUSEHOLD" else "expense"

    @staticmethod
    def sort_key(session_id: str, draft_id: str) -> str:
        return f"{CHAT_PREFIX}{session_id}#D#{draft_id}"

    @classmethod
    def key(cls, user_id: str, session_id: str, draft_id: str) -> tuple:
        return user_id, cls.sort_key(session_id, draft_id)


class ChatWork(UserItem, discriminator="CHAT_WORK"):
    """A work pointer: one admitted message not yet finished, in a service partition
    (``CHATWORK#<shard>``, sorted by admission time) that the reconciliation sweep queries
    (no Scan). Written in the admission transaction, deleted in the worker's finishing one."""

    OwnerUserId = UnicodeAttribute()
    SessionId = UnicodeAttribute()
    MessageId = UnicodeAttribute()
    MessageSK = UnicodeAttribute()

    @staticmethod
    def shard_of(message_id: str) -> str:
        digest = hashlib.sha256(message_id.encode()).digest()
        return f"{CHAT_WORK_PARTITION}{int.from_bytes(digest[:4], 'big') % CHAT_WORK_SHARDS}"

    @staticmethod
    def shards() -> list:
        return [f"{CHAT_WORK_PARTITION}{n}" for n in range(CHAT_WORK_SHARDS)]

    @classmethod
    def build(cls, user_id: str, session_id: str, message_id: str, message_sk: str,
              at: str) -> "ChatWork":
        return cls(cls.shard_of(message_id), f"{at}#{message_id}", OwnerUserId=user_id,
                   SessionId=session_id, MessageId=message_id, MessageSK=message_sk,
                   CreatedAt=at)

    @property
    def is_receipt_scan(self) -> bool:
        """A receipt scan's pointer (its own worker re-drives it, not the chat sweep)."""
        return self.SessionId == RECEIPT_SCAN_WORK

    @classmethod
    def older_than(cls, shard: str, before: str, *, limit: int):
        """Pointers admitted before ``before``, oldest first (one page)."""
        return cls.query(shard, cls.SK < before, limit=limit, consistent_read=True)
