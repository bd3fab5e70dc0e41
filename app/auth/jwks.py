"""The issuer's signing keys, fetched once and refreshed only when an unknown kid shows up."""
from __future__ import annotations

import json
import threading
import time
import urllib.request
import weakref
from typing import Callable, Optional

import jwt

Fetch = Callable[[], dict]


def http_fetch(url: str, timeout: float = 3.0) -> Fetch:
    def fetch() -> dict:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (https URL from config)
            return json.loads(response.read())
    return fetch


def clear_all() -> None:
    """Empty every live cache (after a SnapStart restore the snapshot's keys may be stale)."""
    for cache in list(_instances):
        cache.clear()


class JwksCache:
    """Key lookup by kid; an unknown kid triggers at most one refetch per ``min_refresh`` seconds."""

    def __init__(self, fetch: Fetch, min_refresh: float = 60.0, clock=time.monotonic) -> None:
        self._fetch = fetch
        self._min_refresh = min_refresh
        self._clock = clock
        self._keys: Optional[dict] = None
        self._fetched_at = float("-inf")
        self._lock = threading.Lock()
        _instances.add(self)

    def clear(self) -> None:
        """Forget the keys: the next lookup fetches them again."""
        with self._lock:
            self._keys = None
            self._fetched_at = float("-inf")

    def _load(self) -> None:
        keyset = jwt.PyJWKSet.from_dict(self._fetch())
        self._keys = {key.key_id: key for key in keyset.keys if key.key_id}
        self._fetched_at = self._clock()

    def key_for(self, kid: str) -> Optional[jwt.PyJWK]:
        """The key with this kid, or None when the issuer does not publish it."""
        with self._lock:
            if self._keys is None:
                self._load()
            key = self._keys.get(kid)
            if key is None and self._clock() - self._fetched_at >= self._min_refresh:
                self._load()
                key = self._keys.get(kid)
            return key


_instances: "weakref.WeakSet[JwksCache]" = weakref.WeakSet()
