"""A link's secrets: the token (shown once, kept as a peppered hash like a PAT's) and the
optional PIN (kept as a salted scrypt hash). Every comparison is constant time."""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import NamedTuple, Optional, Tuple

from app.developer import pepper

PREFIX = "tsl_"
SECRET_BYTES = 32  # 256 bits
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
_TOKEN_RE = re.compile(rf"tsl_({_UUID})_({_UUID})_([A-Za-z0-9_-]{{43}})")
# scrypt at n=2^14, r=8: about 16 MB and a few tens of milliseconds a guess, with a salt of
# its own per link, so a leaked table's 4-8 digit PINs are not one precomputed lookup away.
_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1, "dklen": 32}


class LinkToken(NamedTuple):
    group_id: str
    link_id: str
    secret: str


def mint(group_id: str, link_id: str) -> Tuple[str, str]:
    """(the token, shown once; the hash that is all we keep)."""
    secret = secrets.token_urlsafe(SECRET_BYTES)
    return f"{PREFIX}{group_id}_{link_id}_{secret}", secret_hash(link_id, secret)


def parse(token) -> Optional[LinkToken]:
    """The parts of a well-formed token, or None whatever the input."""
    match = _TOKEN_RE.fullmatch(token) if isinstance(token, str) else None
    return LinkToken(*match.groups()) if match else None


def secret_hash(link_id: str, secret: str) -> str:
    # Keyed by the link id too, so a hash is bound to its row (as a PAT's).
    return pepper.hash_message(f"link:{link_id}:{secret}")


def matches(token: LinkToken, stored: Optional[str]) -> bool:
    return pepper.check(f"link:{token.link_id}:{token.secret}", stored or "")


def hash_pin(pin: str) -> Tuple[str, str]:
    """(salt hex, hash hex) of a PIN."""
    salt = secrets.token_bytes(16)
    return salt.hex(), hashlib.scrypt(pin.encode(), salt=salt, **_SCRYPT).hex()


def pin_matches(pin: Optional[str], salt: Optional[str], stored: Optional[str]) -> bool:
    if not pin or not salt or not stored:
        return False
    found = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), **_SCRYPT).hex()
    return hmac.compare_digest(found.encode(), stored.encode())
