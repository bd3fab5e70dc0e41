"""MCP access tokens: RS256 JWTs (RFC 9068 shape) bound to one grant and one resource.

A token names its grant (``gid``); verification checks signature, expiry, issuer and
audience, then reads the grant row strongly consistently and requires Status ACTIVE, and
reads the owner's profile (never cached) so a deleted account's tokens stop at once.

Revocation bound: a grant read is reused for at most GRANT_CACHE_SECONDS (5 s) per process,
so a disconnect made on another warm instance stops its tokens there within 5 s; the
instance that revokes evicts its entry at once (:func:`forget_grant`). Tokens never reach
other routes: they carry ``typ: at+jwt``, an ``aud`` and no ``token_use``, which the app
authenticator (app/auth/tokens.py) refuses."""
from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, Optional, Tuple

import jwt

from app.oauth.errors import mcp_connection_revoked, mcp_token_invalid
from app.core.live import is_live
from app.oauth import keys
from models.users import McpGrant

MAX_LIFETIME_S = 3600
GRANT_CACHE_SECONDS = 5.0
TOKEN_TYPE = "at+jwt"
ACTIVE = "ACTIVE"
LEEWAY_S = 30


@dataclass(frozen=True)
class McpPrincipal:
    user_id: str
    grant_id: str
    scopes: FrozenSet[str]
    client_name: str


def issuer_for(resource: str) -> str:
    """The authorization server's issuer for a resource ``<base>/mcp``: ``<base>``."""
    return resource[: -len("/mcp")] if resource.endswith("/mcp") else resource


def mint_access_token(*, user_id: str, grant_id: str, scopes: Iterable[str], client_name: str,
                      resource: str, lifetime_s: int = MAX_LIFETIME_S,
                      client_id: str = "", now: Optional[float] = None) -> str:
    key = keys.current()
    issued = int(now if now is not None else time.time())
    claims = {"iss": issuer_for(resource), "sub": user_id, "aud": resource,
              "iat": issued, "exp": issued + min(int(lifetime_s), MAX_LIFETIME_S),
              "jti": str(uuid.uuid4()), "gid": grant_id, "client_id": client_id or grant_id,
              "client_name": client_name, "scope": " ".join(sorted(set(scopes)))}
    return jwt.encode(claims, key.private_key, algorithm="RS256",
                      headers={"kid": key.kid, "typ": TOKEN_TYPE})


def decode(token: str, *, resource: Optional[str]) -> dict:
    """Signature, expiry and (when ``resource`` is given) issuer and audience, else 401."""
    try:
        keys.current()
    except RuntimeError:
        raise mcp_token_invalid("MCP access tokens are not accepted here.") from None
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise mcp_token_invalid("The access token is malformed.") from None
    key = keys.for_kid(header.get("kid"))  # the current key or, during a rotation, the previous
    if header.get("alg") != "RS256" or key is None or header.get("typ") != TOKEN_TYPE:
        raise mcp_token_invalid("The access token was not issued by this server.")
    options = {"require": ["exp", "iat", "iss", "sub", "aud", "gid"]}
    try:
        if resource is None:
            return jwt.decode(token, key.public_key, algorithms=["RS256"], leeway=LEEWAY_S,
                              options={**options, "verify_aud": False})
        return jwt.decode(token, key.public_key, algorithms=["RS256"], audience=resource,
                          issuer=issuer_for(resource), options=options, leeway=LEEWAY_S)
    except jwt.ExpiredSignatureError:
        raise mcp_token_invalid("The access token has expired.") from None
    except (jwt.InvalidAudienceError, jwt.InvalidIssuerError):
        raise mcp_token_invalid("The access token was minted for another resource.") from None
    except jwt.PyJWTError:
        raise mcp_token_invalid() from None


class _GrantCache:
    """(user, grant) -> (read at, status, client name); entries live GRANT_CACHE_SECONDS."""

    def __init__(self, ttl: float = GRANT_CACHE_SECONDS,
                 monotonic: Callable[[], float] = time.monotonic, max_entries: int = 10_000):
        self.ttl = ttl
        self._monotonic = monotonic
        self._max = max_entries
        self._entries: Dict[Tuple[str, str], Tuple[float, str, str]] = {}
        self._lock = threading.Lock()

    def lookup(self, user_id: str, grant_id: str) -> Tuple[str, str]:
        now = self._monotonic()
        with self._lock:
            hit = self._entries.get((user_id, grant_id))
        if hit and now - hit[0] < self.ttl:
            return hit[1], hit[2]
        try:
            grant = McpGrant.get(*McpGrant.key(user_id, grant_id), consistent_read=True)
            found = (grant.Status, grant.Client or "")
        except McpGrant.DoesNotExist:
            found = ("MISSING", "")
        with self._lock:
            if len(self._entries) >= self._max:
                self._entries.clear()
            self._entries[(user_id, grant_id)] = (now, *found)
        return found

    def forget(self, user_id: str, grant_id: str) -> None:
        with self._lock:
            self._entries.pop((user_id, grant_id), None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


grant_cache = _GrantCache()


def forget_grant(user_id: str, grant_id: str) -> None:
    """Drop this process's cached status (called by whoever revokes the grant)."""
    grant_cache.forget(user_id, grant_id)


def verify_access_token(token: str, *, resource: str) -> McpPrincipal:
    """The principal behind a valid token for ``resource`` whose grant is ACTIVE, else 401."""
    claims = decode(token, resource=resource)
    user_id, grant_id = str(claims["sub"]), str(claims["gid"])
    status, client_name = grant_cache.lookup(user_id, grant_id)
    if status != ACTIVE:
        raise mcp_connection_revoked()
    if not is_live(user_id):  # every request, past the grant cache: deletion stops it at once
        raise mcp_connection_revoked()
    scopes = frozenset(str(claims.get("scope") or "").split())
    return McpPrincipal(user_id=user_id, grant_id=grant_id, scopes=scopes,
                        client_name=client_name or str(claims.get("client_name") or ""))
