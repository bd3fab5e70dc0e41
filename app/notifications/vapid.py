"""The VAPID public key browsers subscribe with (``applicationServerKey``).

A page calls ``pushManager.subscribe({applicationServerKey})`` with the public half of the key
that signs our Web Push requests; a push service rejects pushes signed by any other key. In
AWS the public key is a plain template parameter (the API function never reads the private
key); in local mode it is derived from the key ``serve`` keeps in its data directory."""
from __future__ import annotations

import base64
from functools import lru_cache
from typing import Optional

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app import config
from app.config import Settings
from app.notifications.errors import web_push_disabled


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _private_key(encoded: str) -> ec.EllipticCurvePrivateKey:
    """The forms pywebpush accepts: PEM, or the base64url raw 32-byte P-256 scalar."""
    text = encoded.strip()
    if text.startswith("-----BEGIN"):
        return serialization.load_pem_private_key(text.encode(), password=None)
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


@lru_cache(maxsize=4)
def public_key_of(private_encoded: str) -> str:
    """base64url of the uncompressed P-256 point, as ``applicationServerKey`` wants it."""
    point = _private_key(private_encoded).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return _b64url(point)


def new_private_key() -> str:
    """A fresh key in the raw base64url form (what the SSM parameter may hold too)."""
    scalar = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return _b64url(scalar.to_bytes(32, "big"))


def web_push_public_key(settings: Optional[Settings] = None) -> Optional[str]:
    """The configured public key, or None when Web Push is off."""
    settings = settings or config.current()
    if settings.vapid_public_key:
        return settings.vapid_public_key
    if settings.vapid_private_key:
        return public_key_of(settings.vapid_private_key)
    return None


def require_public_key() -> str:
    key = web_push_public_key()
    if key is None:
        raise web_push_disabled()
    return key
