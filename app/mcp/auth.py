"""Who is calling /mcp: an MCP access token for this resource, or a 401/403 challenge.

Only tokens the MCP authorization server minted for ``<base>/mcp`` pass
(app.oauth.access_tokens.verify_access_token); app sign-ins, Cognito tokens and PATs
are refused here, as audience-bound MCP tokens are refused by every other route. Each
refusal carries the RFC 6750 / RFC 9728 challenge MCP clients follow to (re)authorize."""
from __future__ import annotations

from typing import Iterable, Optional

from flask import g, request

from app.oauth.views import SCOPES as ALL_SCOPES  # every scope a connection may hold
from app.oauth.ui import base_url  # ``<base>``, as the authorization server names it
from app.auth.principal import Principal
from app.errors import DomainError, Forbidden, Unauthenticated


def resource_url() -> str:
    return base_url() + "/mcp"


class Challenge(DomainError):
    """An HTTP-level refusal of /mcp (401 or 403) with its WWW-Authenticate header."""

    def __init__(self, error: DomainError, *, www_authenticate: str) -> None:
        super().__init__(error.message, code=error.code, details=error.details)
        self.status = error.status
        self.www_authenticate = www_authenticate


def challenge(error: DomainError, *, scopes: Iterable[str] = ALL_SCOPES,
              insufficient: bool = False) -> Challenge:
    parts = [f'resource_metadata="{base_url()}/.well-known/oauth-protected-resource"',
             f'scope="{" ".join(scopes)}"']
    if insufficient:
        parts.insert(0, 'error="insufficient_scope"')
    elif request.headers.get("Authorization"):
        parts.insert(0, 'error="invalid_token"')  # RFC 6750 §3.1: a token was sent and refused
    return Challenge(error, www_authenticate="Bearer " + ", ".join(parts))


def authenticate() -> Principal:
    """The caller as a Principal (kind ``mcp``, credential = the grant id), else a 401 challenge.

    The Principal is also set as ``g.principal`` so request-scoped helpers (cursor scopes,
    logging) see the same user as the REST routes would."""
    from app.oauth.access_tokens import verify_access_token  # JWT + grant read: lazy

    scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise challenge(Unauthenticated("Send an MCP access token: Authorization: Bearer <token>."))
    try:
        caller = verify_access_token(token.strip(), resource=resource_url())
    except Unauthenticated as error:
        raise challenge(error) from None
    principal = Principal(user_id=caller.user_id, identity_key=f"mcp#{caller.grant_id}",
                          kind="mcp", scopes=caller.scopes, credential_id=caller.grant_id)
    g.principal = principal
    g.mcp_client_name = caller.client_name
    from app.logs import bind_user
    bind_user(principal.user_id)
    return principal


def require_scope(principal: Principal, scope: Optional[str]) -> None:
    """403 insufficient_scope unless the connection holds ``scope`` (None: no scope needed)."""
    if scope is None or scope in (principal.scopes or ()):
        return
    raise challenge(Forbidden(f"This connection lacks the {scope} scope.",
                              details={"reason": "INSUFFICIENT_SCOPE", "requiredScope": scope}),
                    scopes=sorted({scope, *(principal.scopes or ())}), insufficient=True)
