"""Users table key prefixes, partitions and buckets: every spelling of a Users key."""
from __future__ import annotations

PROFILE = "PROFILE"
USAGE_PREFIX = "USAGE#"
CHAT_BALANCE = "BALANCE"
LEDGER_PREFIX = "LEDGER#"
CHAT_PREFIX = "CHAT#"
# The service partitions of chat work pointers (sharded like the outbox).
CHAT_WORK_PARTITION = "CHATWORK#"
CHAT_WORK_SHARDS = 4
# A receipt scan's work pointer shares the chat work partitions (one reconcile machinery);
# its SessionId is this marker, its MessageSK the receipt's "<groupId>|<sort key>".
RECEIPT_SCAN_WORK = "RECEIPT_SCAN"
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
# The account's cross-group projection rows (models/users/mine.py).
MINE_PREFIX = "MINE#"
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
