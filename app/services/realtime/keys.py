"""The HMAC keys that sign realtime subscribe tokens (HS256), with key ids for rotation.

Held like the MCP signing key (app/services/mcp/keys.py): a key ring in Secrets Manager
(app/services/core/keyring.py), read on first use and again every few minutes, so a rotation
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

import os
import secrets
import threading
from pathlib import Path
from typing import Callable, Mapping, Optional, Tuple

from app.services.core import keyring

PLAIN_KID = "rt1"  # the id a plain (single-value) key gets
MIN_BYTES = 32
_lock = threading.Lock()
_source: Optional[keyring.Refreshing] = None


def _from_secrets_manager(arn: str) -> bytes:
    import boto3  # only in AWS

    return boto3.client("secretsmanager").get_secret_value(SecretId=arn)["SecretString"].encode()


def _local(data_dir: str) -> str:
    path = Path(data_dir) / "realtime-token-key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(MIN_BYTES))
        path.chmod(0o600)
    return path.read_text()


def _checked(ring: keyring.Ring) -> keyring.Ring:
    if any(len(key.encode()) < MIN_BYTES for key in ring.keys.values()):
        raise RuntimeError(f"a realtime token key must be at least {MIN_BYTES} bytes")
    return ring


def configure(*, env: Mapping[str, str] = os.environ,
              fetch: Callable[[str], bytes] = _from_secrets_manager) -> None:
    """Choose the key's source (see the module doc); the secret is read on first use."""
    global _source
    if env.get("REALTIME_TOKEN_KEY"):
        ring = _checked(keyring.parse(env["REALTIME_TOKEN_KEY"], PLAIN_KID))
        source = keyring.Refreshing(lambda: ring, every_s=float("inf"))
    elif env.get("REALTIME_TOKEN_KEY_SECRET_ARN"):
        arn = env["REALTIME_TOKEN_KEY_SECRET_ARN"]
        source = keyring.Refreshing(
            lambda: _checked(keyring.parse(fetch(arn).decode(), PLAIN_KID)))
    else:
        value = (_local(env.get("TAILSPEND_DATA_DIR", ".tailspend")) if env.get("TAILSPEND_LOCAL")
                 else secrets.token_urlsafe(MIN_BYTES))
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
