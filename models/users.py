"""Users: one partition per user — profile, daily developer usage, chat credit, MCP grants."""
from __future__ import annotations

import hashlib
from typing import Iterator, Optional

from pynamodb.attributes import (BooleanAttribute, DiscriminatorAttribute, ListAttribute,
                                 NumberAttribute, UnicodeAttribute)
from pynamodb.indexes import GlobalSecondaryIndex, KeysOnlyProjection
from pynamodb.models import Model

from models import pynamodb_adapter
from models.base import RawAccess, table

PROFILE = "PROFILE"
USAGE_PREFIX = "USAGE#"
CHAT_BALANCE = "BALANCE"
LEDGER_PREFIX = "LEDGER#"
CHAT_PREFIX = "CHAT#"
# The service partitions of chat work pointers (sharded like the outbox).
CHAT_WORK_PARTITION = "CHATWORK#"
CHAT_WORK_SHARDS = 4
MESSAGE_ROLE_SEGMENT = {"USER": "0", "ASSISTANT": "1"}
MCP_GRANT_PREFIX = "MCPGRANT#"
MCP_CLEANUP_PREFIX = "MCPCLEANUP#"
# Pointers in a user's partition to rows elsewhere that name the user, so account deletion
# finds them without a Scan: each join request the user submitted (GroupData), each
# invitation the user sent (People; also filed in ScanRecoveryIndex by its expiry).
JOIN_REQUEST_POINTER_PREFIX = "JOINREQPTR#"
SENT_INVITATION_PREFIX = "SENTINVITE#"
# Each import the user started -> the new group holding its IMPORT row.
IMPORT_POINTER_PREFIX = "IMPORT#"
# ScanRecoveryIndex buckets of sent invitations by expiry, sharded like the outbox.
INVITE_EXPIRY = "INVITE_EXPIRY"
INVITE_EXPIRY_SHARDS = 8
DELETING = "DELETING"
# ScanRecoveryIndex bucket of profiles whose deletion a crash may have left half done.
ACCOUNT_DELETE = "ACCOUNT_DELETE"
# MCP rows outside any user's partition: each gets a partition of its own keyed by an id or
# a hash, so lookups are one strongly consistent GetItem and nothing ever scans for them.
MCP_REQUEST_PARTITION = "MCPREQ#"
MCP_CODE_PARTITION = "MCPCODE#"
MCP_REFRESH_PARTITION = "MCPRT#"
MCP_CLIENT_PARTITION = "MCPCLIENT#"
MCP_POINTER_CODE = "CODE"
MCP_POINTER_REFRESH_PREFIX = "RT#"


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

    @classmethod
    def older_than(cls, shard: str, before: str, *, limit: int):
        """Pointers admitted before ``before``, oldest first (one page)."""
        return cls.query(shard, cls.SK < before, limit=limit, consistent_read=True)


class McpGrant(UserItem, discriminator="MCP_GRANT"):
    """An MCP connector grant in its owner's partition (status checked on every request).

    PENDING once the user approved (no token yet), ACTIVE once a code was exchanged and the
    token family bound (FamilyId), REVOKED on disconnect, revocation or refresh reuse. A
    revoked grant never comes back: a new connection is a new grant with a new id."""

    GrantId = UnicodeAttribute()
    Status = UnicodeAttribute()
    Client = UnicodeAttribute(null=True)  # the client's display name
    ClientId = UnicodeAttribute(null=True)
    Scopes = UnicodeAttribute(null=True)  # space-separated, as OAuth writes them
    Resource = UnicodeAttribute(null=True)
    FamilyId = UnicodeAttribute(null=True)
    CodeIssued = BooleanAttribute(null=True)
    LastUsedAt = UnicodeAttribute(null=True)

    @staticmethod
    def sort_key(grant_id: str) -> str:
        return f"{MCP_GRANT_PREFIX}{grant_id}"

    @classmethod
    def key(cls, user_id: str, grant_id: str) -> tuple:
        return user_id, cls.sort_key(grant_id)

    @classmethod
    def of_user(cls, user_id: str) -> Iterator["McpGrant"]:
        return cls.query(user_id, cls.SK.startswith(MCP_GRANT_PREFIX), consistent_read=True)


class McpAuthRequest(UserItem, discriminator="MCP_REQUEST"):
    """An unapproved, anonymous authorization request (ExpiresAt: ten minutes)."""

    ClientId = UnicodeAttribute()
    ClientName = UnicodeAttribute()
    RedirectUri = UnicodeAttribute()
    CodeChallenge = UnicodeAttribute()
    Scopes = UnicodeAttribute()
    Resource = UnicodeAttribute()
    State = UnicodeAttribute(null=True)

    @staticmethod
    def key(request_id: str) -> tuple:
        return f"{MCP_REQUEST_PARTITION}{request_id}", "REQUEST"


class McpCodeClaim(UserItem, discriminator="MCP_CODE"):
    """An authorization code, by hash only; Used is set by the one exchange that claims it."""

    OwnerUserId = UnicodeAttribute()
    GrantId = UnicodeAttribute()
    ClientId = UnicodeAttribute()
    RedirectUri = UnicodeAttribute()
    CodeChallenge = UnicodeAttribute()
    Scopes = UnicodeAttribute()
    Resource = UnicodeAttribute()
    Used = BooleanAttribute(null=True)

    @staticmethod
    def key(code_hash: str) -> tuple:
        return f"{MCP_CODE_PARTITION}{code_hash}", "CODE"


class McpRefreshHash(UserItem, discriminator="MCP_REFRESH"):
    """One refresh token of a family, by hash only; Used marks the one rotation that claimed
    it (kept until ExpiresAt so a replay is recognised and revokes the family)."""

    OwnerUserId = UnicodeAttribute()
    GrantId = UnicodeAttribute()
    FamilyId = UnicodeAttribute()
    ClientId = UnicodeAttribute()
    Scopes = UnicodeAttribute()
    Resource = UnicodeAttribute()
    Used = BooleanAttribute(null=True)

    @staticmethod
    def key(token_hash: str) -> tuple:
        return f"{MCP_REFRESH_PARTITION}{token_hash}", "REFRESH"


class McpClient(UserItem, discriminator="MCP_CLIENT"):
    """A dynamically registered (RFC 7591) public client."""

    ClientName = UnicodeAttribute()
    RedirectUris = ListAttribute(of=UnicodeAttribute)
    # RFC 7591 §2: what software registered (kept and answered back, as hosts expect).
    SoftwareId = UnicodeAttribute(null=True)
    SoftwareVersion = UnicodeAttribute(null=True)

    @staticmethod
    def key(client_id: str) -> tuple:
        return f"{MCP_CLIENT_PARTITION}{client_id}", "CLIENT"


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
        return _pointer_pages(cls, user_id, MCP_CLEANUP_PREFIX, page_size)

    @classmethod
    def for_target(cls, owner_user_id: str, grant_id: str,
                   target: "McpCodeClaim | McpRefreshHash") -> "McpCleanupPointer":
        """The pointer to ``target`` (a row outside the owner's partition): ``...#CODE`` for
        the grant's code claim, ``...#RT#<hash head>`` for each of its refresh-token hashes."""
        suffix = (MCP_POINTER_CODE if isinstance(target, McpCodeClaim) else
                  MCP_POINTER_REFRESH_PREFIX + target.UserId.rsplit("#", 1)[-1][:32])
        return cls(owner_user_id, cls.sort_key(grant_id, suffix), TargetUserId=target.UserId,
                   TargetSK=target.SK)


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
