"""Verification of Cognito-style access tokens (RS256, kid from the JWKS, iss, client_id, token_use, exp)."""
from __future__ import annotations

import jwt

from app.auth.jwks import JwksCache
from app.errors import Unauthenticated

REQUIRED_CLAIMS = ["exp", "iat", "iss", "sub", "token_use", "client_id"]


def verify_access_token(token: str, *, jwks: JwksCache, issuer: str, client_id: str) -> dict:
    """The token's claims if it is a valid access token from our issuer, else Unauthenticated."""
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise Unauthenticated("The access token is malformed.") from None
    if header.get("alg") != "RS256":
        raise Unauthenticated("The access token must be signed with RS256.")
    if header.get("typ") == "at+jwt":  # an MCP connector token: only POST /mcp takes those
        raise Unauthenticated("MCP access tokens are accepted only by the MCP endpoint.")
    kid = header.get("kid")
    try:
        key = jwks.key_for(kid) if isinstance(kid, str) else None
    except Exception:  # noqa: BLE001 — the issuer's JWKS could not be fetched or parsed
        raise Unauthenticated("The token issuer's keys are unavailable.") from None
    if key is None:
        raise Unauthenticated("The access token was signed with an unknown key.")
    try:
        claims = jwt.decode(token, key=key.key, algorithms=["RS256"], issuer=issuer,
                            options={"require": REQUIRED_CLAIMS, "verify_aud": False},
                            leeway=30)
    except jwt.ExpiredSignatureError:
        raise Unauthenticated("The access token has expired.") from None
    except jwt.PyJWTError:
        raise Unauthenticated("The access token is not valid.") from None
    # Cognito access tokens carry client_id, not aud: check it ourselves.
    if claims.get("token_use") != "access":
        raise Unauthenticated("An access token is required (not an id token).")
    if "aud" in claims:  # audience-bound tokens (MCP) are for their audience only
        raise Unauthenticated("The access token is bound to another audience.")
    if claims.get("client_id") != client_id:
        raise Unauthenticated("The access token was issued to another client.")
    return claims
