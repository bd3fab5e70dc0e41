"""The served OpenAPI document names paths exactly as api.md does (copied here from it)."""
from __future__ import annotations

CONTRACT_PATHS = {"/health", "/openapi.json", "/docs", "/.well-known/jwks.json", "/dev/tokens",
         "/users/me", "/users/me/groups", "/users/me/identities", "/users/me/join-requests",
         "/admin/users", "/groups", "/groups/{groupId}", "/groups/{groupId}/participants",
         "/groups/{groupId}/participants/{participantId}", "/groups/{groupId}/leave",
         "/groups/{groupId}/participants/{participantId}/transfer",
         "/groups/{groupId}/invite", "/groups/{groupId}/invite/rotate",
         "/groups/{groupId}/invite/preview", "/groups/{groupId}/join-requests",
         "/groups/{groupId}/join-requests/{requestId}/approve",
         "/groups/{groupId}/join-requests/{requestId}/deny",
         "/groups/{groupId}/join-requests/{requestId}", "/groups/{groupId}/expenses",
         "/groups/{groupId}/expenses/{expenseId}", "/expenses/{expenseId}",
         "/groups/{groupId}/expenses/{expenseId}/comments",
         "/groups/{groupId}/expenses/{expenseId}/comments/{commentId}",
         "/groups/{groupId}/settlements", "/groups/{groupId}/settlements/{settlementId}",
         "/groups/{groupId}/balances", "/groups/{groupId}/export",
         "/groups/{groupId}/changes", "/groups/{groupId}/activity",
         "/people/me/handle", "/people/search", "/people/me/friends",
         "/people/me/friends/{userId}/accept", "/people/me/friends/{userId}",
         "/groups/{groupId}/invitations", "/groups/{groupId}/invitations/{userId}",
         "/people/me/invitations", "/people/me/invitations/{groupId}/accept",
         "/people/me/invitations/{groupId}/decline",
         "/notifications", "/notifications/read", "/notifications/preferences",
         "/notifications/mutes/{groupId}", "/notifications/devices",
         "/notifications/devices/{deviceId}", "/notifications/web-push-key",
         "/groups/{groupId}/recurring", "/groups/{groupId}/recurring/{recurringId}",
         "/developer/tokens", "/developer/tokens/{tokenId}", "/users/me/usage",
         "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp",
         "/.well-known/oauth-authorization-server", "/oauth/register", "/oauth/authorize",
         "/oauth/token", "/oauth/revoke", "/users/me/connections",
         "/users/me/connections/{grantId}",
         "/mcp", "/groups/{groupId}/conversions",
         "/groups/{groupId}/conversions/{conversionId}", "/fx/rates",
         # The expense chat assistant (docs/chat.md).
         "/chat/sessions", "/chat/sessions/{sessionId}", "/chat/sessions/{sessionId}/messages",
         "/chat/sessions/{sessionId}/drafts/{draftId}/confirm",
         "/chat/sessions/{sessionId}/drafts/{draftId}/discard", "/users/me/credits",
         "/admin/users/{userId}/credits"}
# Import (issue 24).
CONTRACT_PATHS |= {"/imports", "/imports/{importId}"}
# Live updates (issue 36).
CONTRACT_PATHS |= {"/realtime/token"}
# Receipts (issue 35).
CONTRACT_PATHS |= {"/groups/{groupId}/receipts", "/groups/{groupId}/receipts/{receiptId}",
                   "/groups/{groupId}/receipts/{receiptId}/complete",
                   "/groups/{groupId}/receipts/{receiptId}/scan",
                   "/groups/{groupId}/receipts/{receiptId}/confirm",
                   "/groups/{groupId}/expenses/{expenseId}/receipt"}
# Share links (issue 44).
CONTRACT_PATHS |= {"/groups/{groupId}/links", "/groups/{groupId}/links/{linkId}",
                   "/groups/{groupId}/links/claim", "/links/open", "/links/session"}
# Insight (issue 34).
CONTRACT_PATHS |= {"/users/me/payment-methods", "/groups/{groupId}/stats", "/users/me/stats",
                   "/groups/{groupId}/reminders", "/users/me/people", "/users/me/expenses"}
# E-mail and language (issue 48).
CONTRACT_PATHS |= {"/locales"}
# Balances that explain themselves (issue 46).
CONTRACT_PATHS |= {"/groups/{groupId}/participants/{participantId}/statement",
                   "/users/me/people/{userId}/settle"}
# Archive and trash (issue 47).
CONTRACT_PATHS |= {"/groups/{groupId}/archive", "/groups/{groupId}/unarchive",
                   "/groups/{groupId}/trash", "/groups/{groupId}/trash/{id}/restore"}
# Several receipts per expense (issue 47).
CONTRACT_PATHS |= {"/groups/{groupId}/expenses/{expenseId}/attachments",
                   "/groups/{groupId}/expenses/{expenseId}/attachments/{receiptId}"}
# E-mail (issue 48 part B): the one-click unsubscribe and local mode's mailbox.
CONTRACT_PATHS |= {"/unsubscribe", "/dev/mail", "/dev/mail/{mailId}"}


def test_the_document_serves_exactly_the_contract_paths_built_so_far(client):
    documented = set(client.get("/openapi.json").get_json()["paths"]) | {"/openapi.json", "/docs"}
    assert documented == CONTRACT_PATHS
