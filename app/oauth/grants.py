"""Connections: the caller's grants, and revocation (disconnect, RFC 7009, replay detection).

A revoked grant stays REVOKED: every access token names its grant and is refused from the
next check (this process at once, other warm instances within the access-token cache bound
of 5 s), and every refresh reads the grant strongly consistently before it rotates."""
from __future__ import annotations

from typing import List

from app.errors import not_found
from app.core.clock import now_iso
from app.core.conditional import update_if
from app.oauth.access_tokens import forget_grant
from app.oauth.flow import ACTIVE, REVOKED, scopes_of
from models.users import McpGrant


def list_connections(user_id: str) -> List[dict]:
    """The caller's live connections, newest first (pending approvals and revoked hidden)."""
    rows = [g for g in McpGrant.of_user(user_id) if g.Status == ACTIVE]
    rows.sort(key=lambda g: g.CreatedAt or "", reverse=True)
    return [{"grantId": g.GrantId, "clientName": g.Client or "", "clientId": g.ClientId or "",
             "scopes": scopes_of(g.Scopes) or [], "createdAt": g.CreatedAt,
             "lastUsedAt": g.LastUsedAt} for g in rows]


def revoke(user_id: str, grant_id: str) -> bool:
    """Set the grant REVOKED (idempotent); False when there is no such grant."""
    grant = McpGrant(*McpGrant.key(user_id, grant_id))
    done = update_if(grant, [McpGrant.Status.set(REVOKED), McpGrant.UpdatedAt.set(now_iso())],
                     McpGrant.SK.exists())
    forget_grant(user_id, grant_id)
    return done


def disconnect(user_id: str, grant_id: str) -> None:
    """DELETE /users/me/connections/{grantId}: 404 unless the caller has that grant."""
    if not revoke(user_id, grant_id):
        raise not_found("Connection")
