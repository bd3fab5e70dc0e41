"""MCP connector rows: grants, auth requests, code claims, refresh hashes, clients."""
from __future__ import annotations

from typing import Iterator

from pynamodb.attributes import BooleanAttribute, ListAttribute, UnicodeAttribute

from models.users.keys import (MCP_GRANT_PREFIX, MCP_CLEANUP_PREFIX, MCP_REQUEST_PARTITION,
                               MCP_CODE_PARTITION, MCP_REFRESH_PARTITION, MCP_CLIENT_PARTITION,
                               MCP_POINTER_CODE, MCP_POINTER_REFRESH_PREFIX)
from models.users.base import UserItem, _pointer_pages


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
