"""PAT verification with a short, bounded cache.

Revocation bound: a verified row is reused for at most ``ttl_seconds`` (5 s) per process, so a
token revoked elsewhere stops on every warm instance within that bound; the instance that
revokes it evicts it at once. Expiry is compared on every request (never cached away). The
secret is re-checked against the cached hash on every request, so the cache never lets a
wrong secret through. The owner's profile is read on every request (not cached): a token
of an account being deleted, or deleted, is refused at once on every instance. LastUsedAt is written at most once a minute per token: a conditional
update (LastUsedAt older than a minute) that loses races silently, and a per-process memo so
a warm instance does not even try more often.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable, Dict, FrozenSet, Optional

from pynamodb.exceptions import PynamoDBException

from app.errors import Unauthenticated
from app.developer import tokens
from app.core.conditional import update_if
from app.core.live import is_live
from models.developer_tokens import AccessToken

log = logging.getLogger("tailspend.developer")
CACHE_SECONDS = 5.0
LAST_USED_EVERY = timedelta(minutes=1)
_BAD = "The personal access token is invalid, expired or revoked."


@dataclass(frozen=True)
class VerifiedToken:
    token_id: str
    user_id: str
    scopes: FrozenSet[str]
    name: str


@dataclass
class _Entry:
    fetched: float
    secret_hash: str
    user_id: str
    scopes: FrozenSet[str]
    name: str
    expires_at: str
    revoked: bool
    last_used: Optional[str]


class TokenVerifier:
    """tsp_... -> VerifiedToken, or Unauthenticated. Thread-safe."""

    def __init__(self, *, ttl_seconds: float = CACHE_SECONDS,
                 monotonic: Callable[[], float] = time.monotonic,
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
                 max_entries: int = 10_000) -> None:
        self._ttl = ttl_seconds
        self._monotonic = monotonic
        self._clock = clock
        self._max = max_entries
        self._entries: Dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def evict(self, token_id: str) -> None:
        with self._lock:
            self._entries.pop(token_id, None)

    def forget_user(self, user_id: str) -> None:
        """Drop every cached token of one account (its deletion removes their rows)."""
        with self._lock:
            for token_id in [t for t, e in self._entries.items() if e.user_id == user_id]:
                del self._entries[token_id]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def verify(self, credential: str) -> VerifiedToken:
        parsed = tokens.parse(credential)
        if parsed is None:
            raise Unauthenticated("Malformed personal access token.")
        entry = self._entry(parsed.token_id)
        try:
            ok = entry is not None and tokens.matches(parsed, entry.secret_hash)
        except RuntimeError:  # no pepper configured: refuse every PAT, loudly in the logs
            log.error("token_pepper_missing")
            raise Unauthenticated(_BAD) from None
        now = self._clock()
        if not ok or entry.revoked or entry.expires_at <= tokens.iso(now):
            raise Unauthenticated(_BAD)
        if not is_live(entry.user_id):  # every request: the cache never outlives the owner
            raise Unauthenticated(_BAD)
        self._touch(parsed.token_id, entry, now)
        return VerifiedToken(parsed.token_id, entry.user_id, entry.scopes, entry.name)

    def _entry(self, token_id: str) -> Optional[_Entry]:
        with self._lock:
            hit = self._entries.get(token_id)
            if hit is not None and self._monotonic() - hit.fetched < self._ttl:
                return hit
        try:
            row = AccessToken.get(*AccessToken.key(token_id), consistent_read=True)
        except AccessToken.DoesNotExist:
            return None
        entry = _Entry(self._monotonic(), row.SecretHash, row.UserId, tokens.scopes_of(row),
                       row.Name, row.ExpiresAt, bool(row.RevokedAt), row.LastUsedAt)
        with self._lock:
            if len(self._entries) >= self._max:
                self._entries.clear()
            self._entries[token_id] = entry
        return entry

    def _touch(self, token_id: str, entry: _Entry, now: datetime) -> None:
        """LastUsedAt at most once a minute per token; best effort, never fails the request."""
        cutoff = tokens.iso(now - LAST_USED_EVERY)
        if entry.last_used and entry.last_used > cutoff:
            return
        stamp = tokens.iso(now)
        entry.last_used = stamp  # memo first: concurrent requests here do not all write
        try:  # a failed condition means another instance stamped it first: fine
            update_if(AccessToken(*AccessToken.key(token_id)),
                      [AccessToken.LastUsedAt.set(stamp)], AccessToken.TokenId.exists()
                      & (AccessToken.LastUsedAt.does_not_exist()
                         | (AccessToken.LastUsedAt < cutoff)))
        except PynamoDBException:
            log.warning("token_last_used_failed", extra={"token_id": token_id})
