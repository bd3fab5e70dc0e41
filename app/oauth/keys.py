"""The keys that sign MCP access tokens (RS256), with key ids for rotation.

Sources, first match wins, loaded once per process (cold start):
- MCP_SIGNING_KEY: a PEM private key (or a key ring of them) in the environment (tests);
- MCP_SIGNING_KEY_SECRET_ARN: a Secrets Manager secret holding the PEM or a key ring (AWS; the
  template passes the ARN from the McpSigningKeySecretArn parameter and grants GetSecretValue
  on it), read on first use and again every few minutes;
- local mode: the local issuer's own key, passed in by the app factory.
Without a key minting and verifying fail closed (Unauthenticated / RuntimeError).

The secret is a PEM or a key ring of PEMs (app/core/keyring.py). Tokens are signed
with the current key and carry its kid; a token verifies under any key of the ring, found by
its kid. A plain PEM's kid is derived from its public key (``mcp-<sha256 prefix>``), and each
ring key answers to that derived kid too, so tokens minted before the secret became a ring
keep verifying while their key is listed. :func:`jwks` lists every public key with its kid.
docs/rotation.md is the procedure."""
from __future__ import annotations

import base64
import threading
from typing import Callable, Dict, List, NamedTuple, Optional

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from app import config
from app.config import Settings
from app.core import keyring


class SigningKey(NamedTuple):
    private_key: rsa.RSAPrivateKey
    kid: str

    @property
    def public_key(self) -> rsa.RSAPublicKey:
        return self.private_key.public_key()


_lock = threading.Lock()
_key: Optional[SigningKey] = None  # the current key
_by_kid: Dict[str, SigningKey] = {}  # every key of the ring, by its kid and its derived kid
_source: Optional[keyring.Refreshing] = None  # a Secrets Manager read, done on first use
_installed: Optional[keyring.Ring] = None


def _kid(key: rsa.RSAPrivateKey) -> str:
    der = key.public_key().public_bytes(serialization.Encoding.DER,
                                        serialization.PublicFormat.SubjectPublicKeyInfo)
    digest = hashes.Hash(hashes.SHA256())
    digest.update(der)
    return "mcp-" + digest.finalize().hex()[:16]


def _install(ring: keyring.Ring) -> None:
    """Load every PEM of the ring; a plain PEM (kid "") is named by its derived kid."""
    global _key, _by_kid, _installed
    by_kid: Dict[str, SigningKey] = {}
    current = None
    for kid, pem in ring.keys.items():
        private = serialization.load_pem_private_key(pem.encode(), password=None)
        derived = _kid(private)
        key = SigningKey(private, kid or derived)
        by_kid[derived] = by_kid[key.kid] = key
        if kid == ring.current:
            current = key
    with _lock:
        _key, _by_kid, _installed = current, by_kid, ring


def use_key(key: rsa.RSAPrivateKey) -> None:
    """One fixed key (local mode, tests): no secret behind it."""
    global _key, _by_kid, _source, _installed
    signing = SigningKey(key, _kid(key))
    with _lock:
        _key, _by_kid, _source, _installed = signing, {signing.kid: signing}, None, None


def configure(*, settings: Optional[Settings] = None,
              local_key: Optional[rsa.RSAPrivateKey] = None,
              fetch: Callable[[str], bytes] = keyring.read_secret) -> None:
    """Choose the signing key's source (see the module doc). The Secrets Manager read waits
    for the first MCP token minted or checked: most cold starts never need it."""
    global _source
    settings = settings or config.current()
    if settings.mcp_signing_key:
        _install(keyring.parse(settings.mcp_signing_key, ""))
        with _lock:
            _source = None
    elif settings.mcp_signing_key_secret_arn:
        with _lock:
            _source = keyring.source("", settings.mcp_signing_key_secret_arn, "", fetch=fetch)
    elif local_key is not None:
        use_key(local_key)


def _fresh() -> None:
    source = _source
    if source is not None:
        ring = source.get()  # the first call reads the secret; later ones every few minutes
        if ring is not _installed:
            _install(ring)


def current() -> SigningKey:
    """The key new tokens are signed with."""
    _fresh()
    if _key is None:
        raise RuntimeError("No MCP signing key is configured (MCP_SIGNING_KEY_SECRET_ARN).")
    return _key


def for_kid(kid: object) -> Optional[SigningKey]:
    """The key a token's ``kid`` names, while the ring holds it (RuntimeError: no key at all)."""
    current()
    with _lock:
        return _by_kid.get(kid) if isinstance(kid, str) else None


def _b64(number: int) -> str:
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwks() -> dict:
    """Every verifying key as a JWK Set (RFC 7517), the current one first."""
    first = current()
    with _lock:
        keys: List[SigningKey] = [first] + [k for kid, k in _by_kid.items()
                                            if kid == k.kid and k.kid != first.kid]
    return {"keys": [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": key.kid,
                      "n": _b64(key.public_key.public_numbers().n),
                      "e": _b64(key.public_key.public_numbers().e)} for key in keys]}
