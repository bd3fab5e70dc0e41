"""Codes and refresh tokens: random, shown once, stored only as SHA-256 hashes.

A plain (unpeppered) hash is enough here: each value carries 256 random bits, so a stolen
hash cannot be reversed by guessing, and it is only ever looked up by exact key."""
from __future__ import annotations

import hashlib
import hmac

from authlib.common.security import generate_token

TOKEN_CHARS = 43  # ~256 bits from Authlib's URL-safe alphabet


def new_secret() -> str:
    return generate_token(TOKEN_CHARS)


def s256_challenge(verifier: str) -> str:
    """RFC 7636's S256 code challenge of a PKCE verifier (Authlib's)."""
    # Imported on use: authlib.oauth2 loads its whole server, a cost no cold start should pay.
    from authlib.oauth2.rfc7636 import create_s256_code_challenge

    return create_s256_code_challenge(verifier)


def digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode("utf-8", "surrogatepass"), b.encode("utf-8", "surrogatepass"))
