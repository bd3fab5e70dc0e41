"""OAuth clients of the MCP connector: Client ID Metadata Documents and RFC 7591 registrations.

A ``client_id`` that is an https URL names a Client ID Metadata Document: we fetch it (3 s
timeout, 16 KiB cap, no redirects followed, cached 5 minutes) and accept it only when its
``client_id`` is that URL. Any other ``client_id`` names a row written by POST /oauth/register.

SSRF: the deployed service fetches only public addresses. The host is resolved once, every
address it resolves to must be globally routable, and the connection goes to the checked
address (TLS still verifies the host name), so a DNS answer cannot change between check and
use. Local mode (``allow_private``) may fetch loopback and private hosts, and plain http on a
loopback host, so tests can serve a document from a local HTTP server."""
from __future__ import annotations

import hashlib
import http.client
import json
import socket
import ssl
import threading
import time
import uuid
from dataclasses import dataclass
from typing import Dict, Tuple
from urllib.parse import urlsplit


from app import names
from app.oauth.errors import oauth_invalid_client, oauth_invalid_client_metadata, oauth_invalid_redirect_uri
from app.core import addresses, urls
from app.core.clock import epoch, now_iso
from models.users import McpClient

FETCH_TIMEOUT_S = 3.0
MAX_DOCUMENT_BYTES = 16 * 1024
CACHE_SECONDS = 300.0
MAX_REDIRECT_URIS = 10
MAX_URI_LENGTH = 2000
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}


@dataclass(frozen=True)
class ClientInfo:
    client_id: str
    client_name: str
    redirect_uris: Tuple[str, ...]


def valid_redirect_uri(uri: object) -> bool:
    """https anywhere, or http on a loopback host (native apps), read strictly
    (app.core.urls: no ``\\``, userinfo, fragment, spaces or controls), so the
    host the consent page shows is the host the browser sends the code to."""
    try:
        parts = urls.split(uri, max_length=MAX_URI_LENGTH)
    except urls.BadUrl:
        return False
    if parts.scheme == "https":
        return True
    return parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS


def redirect_host(uri: str) -> str:
    return urlsplit(uri).netloc


# --- RFC 7591 dynamic registration -----------------------------------------------------------

SOFTWARE_FIELDS = ("software_id", "software_version")  # kept as sent (RFC 7591 §2, §3.2.1)

def register(metadata: dict) -> dict:
    """Register a public client; the RFC 7591 §3.2.1 reply."""
    # Imported here: authlib's RFC 7591 claims (with joserfc) cost ~20 ms of every cold start
    # and only registration uses them.
    from authlib.oauth2.rfc7591 import ClientMetadataClaims

    claims = ClientMetadataClaims(dict(metadata), {})
    try:
        claims.validate()  # Authlib checks the metadata's shapes (URIs, contacts, ...)
    except Exception as error:  # noqa: BLE001 (Authlib raises its own JoseError family)
        raise oauth_invalid_client_metadata(str(getattr(error, "description", error))) from None
    uris = metadata.get("redirect_uris")
    if not isinstance(uris, list) or not 1 <= len(uris) <= MAX_REDIRECT_URIS:
        raise oauth_invalid_redirect_uri(f"Send 1 to {MAX_REDIRECT_URIS} redirect_uris.")
    bad = [u for u in uris if not valid_redirect_uri(u)]
    if bad:
        raise oauth_invalid_redirect_uri("Redirect URIs must be https, or http on a loopback "
                                         "host, without a fragment.")
    method = metadata.get("token_endpoint_auth_method", "none")
    if method != "none":
        raise oauth_invalid_client_metadata("Only public clients (token_endpoint_auth_method "
                                            "none) can register.")
    for field, allowed in (("grant_types", {"authorization_code", "refresh_token"}),
                           ("response_types", {"code"})):
        if not set(metadata.get(field) or []) <= allowed:
            raise oauth_invalid_client_metadata(f"{field} may hold only {sorted(allowed)}.")
    # The route's schema refused a name with control or format characters; NFC here.
    name = (names.clean(str(metadata.get("client_name") or "")) or "MCP client")[:100]
    software = {field: str(metadata[field])[:200] for field in SOFTWARE_FIELDS
                if isinstance(metadata.get(field), str) and metadata[field]}
    client_id = str(uuid.uuid4())
    McpClient(*McpClient.key(client_id), ClientName=name, RedirectUris=list(uris),
              SoftwareId=software.get("software_id"),
              SoftwareVersion=software.get("software_version"), CreatedAt=now_iso()).save()
    return {"client_id": client_id, "client_id_issued_at": epoch(), "client_name": name,
            "redirect_uris": list(uris), "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"], "token_endpoint_auth_method": "none", **software}


# --- Resolution ------------------------------------------------------------------------------

def registered(client_id: str) -> bool:
    """Whether ``client_id`` is a client registered here (RFC 7591)."""
    try:
        uuid.UUID(client_id)
    except (ValueError, TypeError, AttributeError):
        return False
    try:
        McpClient.get(*McpClient.key(client_id.lower()), consistent_read=True)
    except McpClient.DoesNotExist:
        return False
    return True


def registration_subject(metadata: object) -> str:
    """Whose window a registration spends: the registering client's, as named by its
    metadata (software_id, name, redirect URIs), never its address."""
    if not isinstance(metadata, dict):
        return "register:-"
    named = json.dumps([metadata.get("software_id"), metadata.get("client_name"),
                        sorted(str(u) for u in metadata.get("redirect_uris") or [])
                        if isinstance(metadata.get("redirect_uris"), list) else None],
                       sort_keys=True, default=str)
    return "register:" + hashlib.sha256(named.encode()).hexdigest()[:32]


def is_metadata_url(client_id: str) -> bool:
    return client_id.startswith(("https://", "http://"))


def resolve(client_id: str, *, allow_private: bool) -> ClientInfo:
    """The client behind ``client_id``, or invalid_client (never a partial answer)."""
    if not isinstance(client_id, str) or not client_id or len(client_id) > MAX_URI_LENGTH:
        raise oauth_invalid_client("Send a client_id.")
    if is_metadata_url(client_id):
        return _documents.get(client_id, allow_private=allow_private)
    try:
        uuid.UUID(client_id)
    except ValueError:
        raise oauth_invalid_client() from None
    try:
        row = McpClient.get(*McpClient.key(client_id.lower()), consistent_read=True)
    except McpClient.DoesNotExist:
        raise oauth_invalid_client() from None
    return ClientInfo(client_id, row.ClientName, tuple(row.RedirectUris))


class _DocumentCache:
    def __init__(self) -> None:
        self._entries: Dict[str, Tuple[float, ClientInfo]] = {}
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def get(self, url: str, *, allow_private: bool) -> ClientInfo:
        with self._lock:
            hit = self._entries.get(url)
        if hit and hit[0] > time.monotonic():
            return hit[1]
        info = _parse_document(url, fetch_document(url, allow_private=allow_private))
        with self._lock:
            if len(self._entries) > 1000:
                self._entries.clear()
            self._entries[url] = (time.monotonic() + CACHE_SECONDS, info)
        return info


_documents = _DocumentCache()


def clear_cache() -> None:
    _documents.clear()


def _parse_document(url: str, document: dict) -> ClientInfo:
    if document.get("client_id") != url:
        raise oauth_invalid_client("The client metadata document names another client_id.")
    uris = document.get("redirect_uris")
    if (not isinstance(uris, list) or not 1 <= len(uris) <= MAX_REDIRECT_URIS
            or not all(valid_redirect_uri(u) for u in uris)):
        raise oauth_invalid_client("The client metadata document's redirect_uris are invalid.")
    if document.get("token_endpoint_auth_method", "none") != "none":
        raise oauth_invalid_client("Only public clients are supported.")
    name = names.clean(document.get("client_name")) if isinstance(
        document.get("client_name"), str) else None
    # A name the document cannot show safely (blank once its format characters are gone)
    # is the document's host instead, which the consent page shows anyway.
    name = name[:100] if name and name.strip() else urlsplit(url).hostname
    return ClientInfo(url, str(name), tuple(uris))


def public_address(address: str) -> bool:
    """The one SSRF rule (app.core.addresses), wrapped forms of IPv4 included."""
    return addresses.is_public(address)


def fetch_document(url: str, *, allow_private: bool) -> dict:
    """GET the metadata document at ``url`` under the SSRF rules above."""
    try:
        parts = urls.split(url, max_length=MAX_URI_LENGTH)
        port = parts.port
    except ValueError:  # urls.BadUrl too
        raise oauth_invalid_client("The client_id is not a valid URL.") from None
    host = parts.hostname
    plain_http_ok = allow_private and host in LOOPBACK_HOSTS
    if (parts.scheme != "https" and not (parts.scheme == "http" and plain_http_ok)) \
            or not host or parts.fragment or "@" in parts.netloc or parts.path in ("", "/"):
        raise oauth_invalid_client("A client_id URL must be https with a path.")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        resolved = (addresses.resolve(host, port) if allow_private
                    else addresses.public_addresses(host, port))
    except addresses.Unresolvable:
        raise oauth_invalid_client("The client_id host does not resolve.") from None
    except addresses.Refused:
        raise oauth_invalid_client("The client_id URL points at a private address.") from None
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    connection = _PinnedConnection(parts.scheme, host, resolved[0], port)
    try:
        connection.request("GET", target, headers={"Accept": "application/json",
                                                   "User-Agent": "TailSpend-OAuth/1"})
        reply = connection.getresponse()
        if reply.status != 200:  # a redirect is refused too: we never follow one
            raise oauth_invalid_client(f"The client metadata document answered {reply.status}.")
        body = reply.read(MAX_DOCUMENT_BYTES + 1)
    except (OSError, http.client.HTTPException):
        raise oauth_invalid_client("The client metadata document could not be fetched.") from None
    finally:
        connection.close()
    if len(body) > MAX_DOCUMENT_BYTES:
        raise oauth_invalid_client("The client metadata document is too large.")
    try:
        document = json.loads(body)
    except ValueError:
        raise oauth_invalid_client("The client metadata document is not JSON.") from None
    if not isinstance(document, dict):
        raise oauth_invalid_client("The client metadata document is not a JSON object.")
    return document


class _PinnedConnection:
    """One HTTP(S) connection to an address we already checked, naming the host for TLS."""

    def __init__(self, scheme: str, host: str, address: str, port: int) -> None:
        if scheme == "https":
            self._conn = http.client.HTTPSConnection(host, port, timeout=FETCH_TIMEOUT_S,
                                                     context=ssl.create_default_context())
        else:
            self._conn = http.client.HTTPConnection(host, port, timeout=FETCH_TIMEOUT_S)
        self._conn._create_connection = (  # connect to the checked address, not a re-resolve
            lambda _addr, timeout=FETCH_TIMEOUT_S, source=None:
            socket.create_connection((address, port), timeout, source))

    def request(self, *args, **kwargs) -> None:
        self._conn.request(*args, **kwargs)

    def getresponse(self):
        return self._conn.getresponse()

    def close(self) -> None:
        self._conn.close()
