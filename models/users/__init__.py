"""Users: one partition per user — profile, daily developer usage, chat credit, MCP grants.

One module per row kind (keys, base, profile, chat, mcp, pointers); every name is
re-exported here, so ``from models.users import X`` works as before the split."""
from __future__ import annotations

from models.users.keys import (PROFILE, USAGE_PREFIX, CHAT_BALANCE, LEDGER_PREFIX, CHAT_PREFIX,
                               CHAT_WORK_PARTITION, CHAT_WORK_SHARDS, MESSAGE_ROLE_SEGMENT,
                               RECEIPT_SCAN_WORK,
                               MCP_GRANT_PREFIX, MCP_CLEANUP_PREFIX, JOIN_REQUEST_POINTER_PREFIX,
                               SENT_INVITATION_PREFIX, IMPORT_POINTER_PREFIX, INVITE_EXPIRY,
                               INVITE_EXPIRY_SHARDS, DELETING, ACCOUNT_DELETE,
                               MCP_REQUEST_PARTITION, MCP_CODE_PARTITION, MCP_REFRESH_PARTITION,
                               MCP_CLIENT_PARTITION, MCP_POINTER_CODE, MCP_POINTER_REFRESH_PREFIX)
from models.users.base import ScanRecoveryIndex, UserItem
from models.users.profile import Profile, Usage
from models.users.chat import (ChatBalance, LedgerEntry, ChatSession, ChatMessage, ChatDraft,
                               ChatWork)
from models.users.mcp import (McpGrant, McpAuthRequest, McpCodeClaim, McpRefreshHash, McpClient,
                              McpCleanupPointer)
from models.users.pointers import (JoinRequestPointer, ImportPointer, SentInvitation)
from models.users.mine import MyEntry
__all__ = ["PROFILE", "USAGE_PREFIX", "CHAT_BALANCE", "LEDGER_PREFIX", "CHAT_PREFIX",
           "CHAT_WORK_PARTITION", "CHAT_WORK_SHARDS", "MESSAGE_ROLE_SEGMENT", "RECEIPT_SCAN_WORK", "MCP_GRANT_PREFIX",
           "MCP_CLEANUP_PREFIX", "JOIN_REQUEST_POINTER_PREFIX", "SENT_INVITATION_PREFIX",
           "IMPORT_POINTER_PREFIX", "INVITE_EXPIRY", "INVITE_EXPIRY_SHARDS", "DELETING",
           "ACCOUNT_DELETE", "MCP_REQUEST_PARTITION", "MCP_CODE_PARTITION", "MCP_REFRESH_PARTITION",
           "MCP_CLIENT_PARTITION", "MCP_POINTER_CODE", "MCP_POINTER_REFRESH_PREFIX",
           "ScanRecoveryIndex", "UserItem", "Profile", "Usage", "ChatBalance", "LedgerEntry",
           "ChatSession", "ChatMessage", "ChatDraft", "ChatWork", "McpGrant", "McpAuthRequest",
           "McpCodeClaim", "McpRefreshHash", "McpClient", "McpCleanupPointer", "JoinRequestPointer",
           "ImportPointer", "SentInvitation", "MyEntry"]
