"""Authorization header -> Principal. One place decides which credential kinds exist."""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Dict, Optional, Tuple

from app.auth.jwks import JwksCache
from app.auth.principal import Principal, app_credential
from app.auth.tokens import verify_access_token
from app.errors import Unauthenticated, account_deleting
from models.identities import Identity

PAT_PREFIX = "tsp_"
LINK_SESSION_PREFIX = "tss_"  # a share-link session (app.links.sessions signs them)
ADMIN_GROUP = "admin"


class IdentityCache:
    """In-process cache of identity key -> UserId; short-lived so a revoked identity stops soon.

    It never decides whether the account is live: the authenticator reads the profile."""

    def __init__(self, ttl_seconds: float = 60.0, max_entries: int = 10_000) -> None:
        self._ttl = ttl_seconds
        self._max = max_entries
        self._entries: Dict[str, Tuple[float, str]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> Optional[str]:
        with self._lock:
            hit = self._entries.get(key)
            if hit and hit[0] > time.monotonic():
                return hit[1]
            return None

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def forget_user(self, user_id: str) -> None:
        """Drop every entry of one user (their account is being deleted)."""
        with self._lock:
            for key in [k for k, (_, uid) in self._entries.items() if uid == user_id]:
                del self._entries[key]

    def put(self, key: str, user_id: str) -> None:
        with self._lock:
            if len(self._entries) >= self._max:
                self._entries.clear()
            self._entries[key] = (time.monotonic() + self._ttl, user_id)


class Authenticator:
    """Verifies bearer credentials; personal access tokens plug in through ``pat_verifier``."""

    def __init__(self, *, jwks: JwksCache, issuer: str, client_id: str, identity_provider: str,
                 identities: IdentityCache,
                 pat_verifier: Optional[Callable[[str], Principal]] = None,
                 link_verifier: Optional[Callable[[str], Principal]] = None) -> None:
        self._jwks = jwks
        self._issuer = issuer
        self._client_id = client_id
        self._provider = identity_provider
        self.identities = identities
        self._pat_verifier = pat_verifier
        self._link_verifier = link_verifier

    def accept_pats(self, verifier: Callable[[str], Principal]) -> None:
        """Plug in personal access token verification (the developer area owns it)."""
        self._pat_verifier = verifier

    def accept_link_sessions(self, verifier: Callable[[str], Principal]) -> None:
        """Plug in share-link session verification (the links area owns it). The verifier
        reads nothing: the session's link row is read with its group's access check."""
        self._link_verifier = verifier

    def authenticate(self, authorization: Optional[str],
                     group: Optional[Tuple[str, Any]] = None,
                     live_in_view: bool = False) -> Principal:
        """The caller, their account's liveness read on every call. ``group`` ((group id,
        sort keys to prefetch, or a function giving them, called once the token is verified)):
        the request is under /groups/{groupId}, so an app sign-in's liveness read also reads
        the group rows its authorization will need (one call). ``live_in_view``: the view
        reads it in a batch of its own and refuses a caller who is not live
        (app.api.needs: liveness_in_view), so an app sign-in reads nothing here."""
        scheme, _, credential = (authorization or "").partition(" ")
        credential = credential.strip()
        if scheme.lower() != "bearer" or not credential:
            raise Unauthenticated("Send a bearer token in the Authorization header.")
        if credential.startswith(PAT_PREFIX):
            if self._pat_verifier is None:
                raise Unauthenticated("Personal access tokens are not accepted here.")
            return self._pat_verifier(credential)
        if credential.startswith(LINK_SESSION_PREFIX):
            if self._link_verifier is None:
                raise Unauthenticated("Share-link sessions are not accepted here.")
            return self._link_verifier(credential)
        claims = verify_access_token(credential, jwks=self._jwks, issuer=self._issuer,
                                     client_id=self._client_id)
        identity_key = Identity.key(self._provider, claims["sub"])
        user_id, deleting = self._user_for(identity_key, group, live_in_view)
        return Principal(user_id=user_id, identity_key=identity_key,
                         credential_id=app_credential(user_id),
                         is_admin=_in_group(claims, ADMIN_GROUP), deleting=deleting)

    def user_for_client_token(self, credential: str, client_id: str) -> str:
        """The user behind an access token from another app client of our pool (the MCP
        consent flow's hosted-UI sign-in), checked like every other token but for its client."""
        claims = verify_access_token(credential, jwks=self._jwks, issuer=self._issuer,
                                     client_id=client_id)
        user_id, deleting = self._user_for(Identity.key(self._provider, claims["sub"]))
        if deleting:
            raise account_deleting()
        return user_id

    def _user_for(self, identity_key: str, group: Optional[Tuple[str, Any]] = None,
                  live_in_view: bool = False) -> Tuple[str, bool]:
        """(UserId, whether the account is gone: being deleted, or its profile absent).

        The cache holds only which user an identity names (an identity never changes
        owner); whether that account is live is read from its profile on every request
        (one strongly consistent GetItem), so no warm instance serves an account once its
        deletion has begun. An identity flagged by the deletion is never cached."""
        user_id = self.identities.get(identity_key)
        if not user_id:
            try:
                identity = Identity.get(identity_key)
            except Identity.DoesNotExist:
                raise Unauthenticated("This sign-in is not linked to an account.") from None
            if identity.Deleting:
                return identity.UserId, True
            user_id = identity.UserId
            self.identities.put(identity_key, user_id)
        if live_in_view:
            return user_id, False  # not known yet: the view's own batch reads it
        if group is not None:
            group_id, prefetch = group
            return user_id, not is_live_in_group(
                user_id, group_id, prefetch() if callable(prefetch) else prefetch)
        return user_id, not is_live(user_id)


def is_live(user_id: str) -> bool:
    """app.core.live.is_live, imported on the first signed-in request: the users
    table's model is not a start-up import (a public request never reads it)."""
    from app.core.live import is_live as read_profile
    return read_profile(user_id)


def is_live_in_group(user_id: str, group_id: str, prefetch: tuple) -> bool:
    """app.core.live.is_live_in_group (imported late, as :func:`is_live`)."""
    from app.core.live import is_live_in_group as read_with_group
    return read_with_group(user_id, group_id, prefetch)


def _in_group(claims: dict, group: str) -> bool:
    """Membership from ``cognito:groups``, which Cognito sends as a list of names.

    Any other shape grants nothing: on a string, ``in`` is a substring test ("sysadmin")."""
    groups = claims.get("cognito:groups")
    return isinstance(groups, list) and any(g == group for g in groups if isinstance(g, str))
