"""The OAuth server's named errors (its own; app/errors.py holds OAuthError, which the HTTP
kernel answers in RFC 6749's shape, and the shared ones)."""
from __future__ import annotations

from app.errors import Conflict, OAuthError, Unauthenticated


def oauth_invalid_grant(why: str = "The code or refresh token is invalid, expired or used.") -> OAuthError:
    return OAuthError("invalid_grant", why)


def oauth_invalid_request(why: str) -> OAuthError:
    return OAuthError("invalid_request", why)


def oauth_invalid_client(why: str = "Unknown client.") -> OAuthError:
    return OAuthError("invalid_client", why, status=401)


def oauth_unsupported_grant_type() -> OAuthError:
    return OAuthError("unsupported_grant_type",
                      "Only authorization_code and refresh_token are supported.")


def oauth_invalid_client_metadata(why: str) -> OAuthError:
    return OAuthError("invalid_client_metadata", why)


def oauth_invalid_redirect_uri(why: str) -> OAuthError:
    return OAuthError("invalid_redirect_uri", why)


def mcp_token_invalid(why: str = "The MCP access token is invalid or expired.") -> Unauthenticated:
    return Unauthenticated(why)


def mcp_connection_revoked() -> Unauthenticated:
    return Unauthenticated("This connection was disconnected or is not active; connect again.")


def authorization_request_expired() -> Conflict:
    return Conflict("The authorization request expired or was already answered; start again "
                    "from the assistant.", code="AUTHORIZATION_EXPIRED")
