"""Which browser origins may call POST /mcp (the Streamable HTTP transport's Origin rule).

A web page the user visits must not drive their MCP connection from their browser (DNS
rebinding, a malicious page replaying a token it got hold of): a request whose ``Origin``
the server does not trust is refused with 403 before anything else. Trusted: the API's own
origin, the deployment's allow-list (template parameter McpAllowedOrigins, env
MCP_ALLOWED_ORIGINS), and in local mode any loopback origin (the MCP Inspector runs on
localhost). A request without ``Origin`` is a server-side host (Claude's and ChatGPT's
connectors call from their servers) and stays allowed."""
from __future__ import annotations

from typing import Optional
from urllib.parse import urlsplit

from flask import request

from app.api.context import settings
from app.oauth.ui import base_url

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


def _origin_of(url: str) -> Optional[str]:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def trusted(origin: Optional[str]) -> bool:
    if origin is None:
        return True
    seen = _origin_of(origin.strip())
    if seen is None:  # "null" (sandboxed frames, file:), or not an origin at all
        return False
    config = settings()
    if seen == _origin_of(base_url()) or seen in {o.lower() for o in config.mcp_allowed_origins}:
        return True
    return config.local_mode and (urlsplit(seen).hostname or "") in LOOPBACK_HOSTS


def check() -> None:
    """403 for a request from an untrusted browser origin (HttpRpcError: a JSON-RPC body)."""
    from app.mcp.jsonrpc import INVALID_REQUEST, http_error

    origin = request.headers.get("Origin")
    if not trusted(origin):
        raise http_error(403, INVALID_REQUEST, f"Origin {origin!r} may not call this server.")
