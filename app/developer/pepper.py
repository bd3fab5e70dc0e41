"""The server-side pepper keying token hashes (HMAC-SHA256), with key ids for rotation.

A stolen DeveloperTokens table is useless without it, so it never lives in the table's
account of record: in AWS it is a Secrets Manager secret fetched at cold start and re-read
every few minutes (the template passes its ARN in TOKEN_PEPPER_SECRET_ARN and grants
GetSecretValue on it only); locally and in tests TOKEN_PEPPER may hold it directly, and local
mode keeps a random one in the data dir. Without any source PAT verification fails closed
(RuntimeError, never a guess).

The secret is a plain pepper or a key ring (app/core/keyring.py). A hash names the
pepper it was made with: ``hmac-sha256:<kid>:<hex>``; a plain pepper's id is ``v1``, so every
hash stored before key rings (``hmac-sha256:v1:...``) keeps verifying under a ring that lists
the old pepper as ``v1``. New hashes use the ring's current pepper; a hash whose pepper is no
longer in the ring never verifies. docs/rotation.md is the procedure.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from typing import Callable, Dict, Optional, Tuple

from app import config
from app.limits import MIN_SECRET_BYTES
from app.config import Settings
from app.core import keyring

PLAIN_KID = "v1"  # the id a plain (single-value) pepper setting gets: a ring of one
SCHEME = "hmac-sha256"
_lock = threading.Lock()
_pepper: Optional[bytes] = None  # the current pepper
_kid: str = PLAIN_KID  # its id
_others: Dict[str, bytes] = {}  # the ring's other peppers (verification only)
_source: Optional[keyring.Refreshing] = None  # the secret, when it comes from Secrets Manager
_installed: Optional[keyring.Ring] = None  # the ring _source returned last


def _install(current: str, peppers: Dict[str, bytes]) -> None:
    global _pepper, _kid, _others
    for value in peppers.values():
        if len(value) < MIN_SECRET_BYTES:
            raise RuntimeError(f"the token pepper must be at least {MIN_SECRET_BYTES} bytes")
    with _lock:
        _pepper, _kid = peppers[current], current
        _others = {kid: value for kid, value in peppers.items() if kid != current}


def _install_ring(ring: keyring.Ring) -> None:
    global _installed
    _install(ring.current, {kid: value.encode() for kid, value in ring.keys.items()})
    _installed = ring


def configure(*, settings: Optional[Settings] = None, local_data_dir: Optional[str] = None,
              fetch: Callable[[str], bytes] = keyring.read_secret) -> None:
    """Load the pepper once (cold start). Order: TOKEN_PEPPER, the secret ARN, local data dir."""
    global _source
    settings = settings or config.current()
    source = keyring.source(settings.token_pepper, settings.token_pepper_secret_arn, PLAIN_KID,
                            fetch=fetch)
    if source is not None:
        _install_ring(source.get())
        _source = source
    elif local_data_dir:
        use(keyring.kept_in(local_data_dir, "token-pepper", lambda: secrets.token_bytes(MIN_SECRET_BYTES)))
    # else: one pepper per process: an app built without a source keeps the one loaded


def use(value: bytes) -> None:
    """One fixed pepper (id ``v1``), no secret behind it: local mode and tests."""
    global _source
    _install(PLAIN_KID, {PLAIN_KID: value})
    _source = None


def _fresh() -> None:
    source = _source
    if source is not None:
        ring = source.get()  # cheap unless REFRESH_S passed
        if ring is not _installed:
            _install_ring(ring)


def current() -> Tuple[str, bytes]:
    """(kid, pepper) that new hashes use."""
    _fresh()
    with _lock:
        if _pepper is None:
            raise RuntimeError("no token pepper configured (TOKEN_PEPPER or "
                               "TOKEN_PEPPER_SECRET_ARN)")
        return _kid, _pepper


def get() -> bytes:
    return current()[1]


def _pepper_for(kid: str) -> Optional[bytes]:
    current_kid, value = current()
    if kid == current_kid:
        return value
    with _lock:
        return _others.get(kid)


def _digest(pepper: bytes, kid: str, message: str) -> str:
    return f"{SCHEME}:{kid}:" + hmac.new(pepper, message.encode(), hashlib.sha256).hexdigest()


def hash_message(message: str) -> str:
    """``hmac-sha256:<current kid>:<hex>`` of ``message``."""
    kid, value = current()
    return _digest(value, kid, message)


def check(message: str, stored: str) -> bool:
    """True when ``stored`` is the hash of ``message`` under a pepper the ring still holds
    (constant time in the digest; RuntimeError when no pepper is configured at all)."""
    scheme, _, rest = (stored or "").partition(":")
    kid, _, _digest_hex = rest.partition(":")
    value = _pepper_for(kid) if scheme == SCHEME and kid else None
    if value is None:
        current()  # no pepper at all raises; an unknown or dropped kid is simply no match
        return False
    return hmac.compare_digest(_digest(value, kid, message).encode(), stored.encode())
