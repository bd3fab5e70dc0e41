"""The HMAC keys that sign realtime subscribe tokens (HS256), with key ids for rotation.

Held like the MCP signing key (app/oauth/keys.py): a key ring in Secrets Manager
(app/core/keyring.py), read on first use and again every few minutes, so a rotation
reaches warm containers without a deploy; tokens carry the current key's kid and verify
under any key the ring lists. HMAC rather than RS256 because the only verifier is our own
authorizer (and local mode's server), and CloudFormation can generate the secret itself.

Sources, first match wins, chosen on first use:
- REALTIME_TOKEN_KEY: the key or a key ring (tests);
- REALTIME_TOKEN_KEY_SECRET_ARN: the secret (AWS: the template's RealtimeTokenSecret, read
  by the API, which mints, and the authorizer, which verifies);
- local mode (TAILSPEND_LOCAL): a random key kept in the data dir, so tokens survive a restart;
- otherwise a random key for this process (an app in a test that never configured one).
docs/rotation.md is the procedure."""
from __future__ import annotations

import secrets
import threading
from typing import Callable, Optional, Tuple

from app import config
from app.limits import MIN_SECRET_BYTES
from app.config import Settings
from app.core import keyring

PLAIN_KID = "rt1"  # the id a plain (single-value) key gets
_lock = threading.Lock()
_source: Optional[keyring.Refreshing] = None


def _checked(ring: keyring.Ring) -> keyring.Ring:
    if any(len(key.encode()) < MIN_SECRET_BYTES for key in ring.keys.values()):
        raise RuntimeError(f"a realtime token key must be at least {MIN_SECRET_BYTES} bytes")
    return ring


def configure(*, settings: Optional[Settings] = None,
              fetch: Callable[[str], bytes] = keyring.read_secret) -> None:
    """Choose the key's source (see the module doc); the secret is read on first use."""
    global _source
    settings = settings or config.current()
    source = keyring.source(settings.realtime_token_key, settings.realtime_token_key_secret_arn,
                            PLAIN_KID, fetch=fetch, check=_checked)
    if source is None:
        value = (keyring.kept_in(settings.data_dir, "realtime-token-key",
                                 lambda: secrets.token_urlsafe(MIN_SECRET_BYTES).encode()).decode()
                 if settings.local_mode else secrets.token_urlsafe(MIN_SECRET_BYTES))
        ring = keyring.Ring(PLAIN_KID, {PLAIN_KID: value})
        source = keyring.Refreshing(lambda: ring, every_s=float("inf"))
    with _lock:
        _source = source


def _ring() -> keyring.Ring:
    if _source is None:
        configure()
    return _source.get()


def current() -> Tuple[str, bytes]:
    """(kid, key) new tokens are signed with."""
    ring = _ring()
    return ring.current, ring.keys[ring.current].encode()


def for_kid(kid: object) -> Optional[bytes]:
    """The key a token's kid names while the ring lists it, else None."""
    keys = _ring().keys
    return keys[kid].encode() if isinstance(kid, str) and kid in keys else None
