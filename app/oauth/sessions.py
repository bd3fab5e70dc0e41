"""The consent flow's browser session and CSRF tokens: HMACs, nothing stored.

The session cookie binds one signed-in user to one authorization request for ten minutes;
the CSRF token on the consent (and local sign-in) form is an HMAC of the request (and user),
so a form posted from another site, or for another request or user, is refused. The HMAC key
is derived from the MCP signing key, so no second secret has to be provisioned."""
from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Optional
from urllib.parse import urlencode

from cryptography.hazmat.primitives import serialization

from app.core.clock import epoch
from app.oauth import keys, secrets

SESSION_TTL_S = 600


def _secret() -> bytes:
    der = keys.current().private_key.private_bytes(serialization.Encoding.DER,
                                                   serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption())
    return hashlib.sha256(b"tailspend-mcp-consent-session\0" + der).digest()


def _mac(*parts: str) -> str:
    message = "\0".join(parts).encode("utf-8", "surrogatepass")
    digest = hmac.new(_secret(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def session_for(request_id: str, user_id: str) -> str:
    expires = str(epoch() + SESSION_TTL_S)
    return ".".join([request_id, user_id, expires, _mac("session", request_id, user_id, expires)])


def user_of(cookie: Optional[str], request_id: str) -> Optional[str]:
    """The signed-in user for this request, or None (absent, forged, expired, other request)."""
    parts = (cookie or "").split(".")
    if len(parts) != 4:
        return None
    rid, user_id, expires, mac = parts
    if rid != request_id or not expires.isdigit() or int(expires) <= epoch():
        return None
    if not hmac.compare_digest(mac, _mac("session", rid, user_id, expires)):
        return None
    return user_id


def csrf_token(request_id: str, user_id: str = "") -> str:
    return _mac("csrf", request_id, user_id)


def csrf_ok(token: Optional[str], request_id: str, user_id: str = "") -> bool:
    return bool(token) and hmac.compare_digest(str(token), csrf_token(request_id, user_id))


def hosted_ui_verifier(request_id: str) -> str:
    """The PKCE verifier of the Cognito hosted-UI leg: an HMAC of the request, so nothing is
    stored between the redirect and the callback (43+ unreserved characters)."""
    return (csrf_token(request_id, "cognito-pkce") * 2)[:64]


def hosted_ui_url(*, domain: str, client_id: str, callback: str, request_id: str) -> str:
    """Where the browser signs in in AWS; ``state`` is the authorization request id."""
    query = urlencode({"response_type": "code", "client_id": client_id, "redirect_uri": callback,
                       "state": request_id, "scope": "openid email",
                       "code_challenge_method": "S256",
                       "code_challenge": secrets.s256_challenge(hosted_ui_verifier(request_id))})
    return f"{domain}/oauth2/authorize?{query}"
