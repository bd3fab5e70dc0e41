"""A real MCP client no one here wrote (the official `mcp` SDK, Streamable HTTP client with its
OAuthClientProvider) against `python -m app serve`.

For each way a client registers (RFC 7591 dynamic registration, and a Client ID Metadata
Document served over HTTPS by this test), the SDK finds the protected-resource and
authorization-server metadata from /mcp's 401, registers, runs PKCE through a scripted
consent (the redirect handler signs in and approves on the server's own pages, as a person
would in a browser), then lists the tools, adds an expense and reads the balance change."""
from __future__ import annotations

import http.server
import json
import ssl
import threading
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import anyio
import httpx2
import pytest
import requests
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from tests.local.serving import call, sign_in

REDIRECT = "http://127.0.0.1:8976/callback"  # never listened on: the script reads the 302
SCOPES = "groups:read expenses:write settlements:write"
EMAIL = "mcp-sdk-e2e@example.com"  # the served app is shared: a user of its own


class MemoryStorage:
    """The SDK's TokenStorage, in memory."""

    def __init__(self) -> None:
        self.tokens = None
        self.client_info = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class ScriptedConsent:
    """The person at the browser: sign in on the local form, approve, hand back the code."""

    def __init__(self) -> None:
        self.result: AuthorizationCodeResult | None = None
        self.pages: list = []

    def _run(self, authorization_url: str) -> None:
        browser = requests.Session()
        url = authorization_url
        for _ in range(10):  # authorize -> sign-in form -> consent -> redirect to the client
            if url.startswith(REDIRECT):
                query = parse_qs(urlsplit(url).query)
                self.result = AuthorizationCodeResult(code=query["code"][0],
                                                      state=query["state"][0],
                                                      iss=query.get("iss", [None])[0])
                return
            page = browser.get(url, allow_redirects=False, timeout=30)
            self.pages.append(urlsplit(url).path)
            if page.status_code in (302, 303):
                url = urljoin(url, page.headers["Location"])
                continue
            assert page.status_code == 200, (url, page.status_code, page.text[:500])
            form = _hidden_fields(page.text)
            path = urlsplit(url).path
            if path.endswith("/login"):
                reply = browser.post(urljoin(url, "/oauth/login"),
                                     data={**form, "email": EMAIL}, allow_redirects=False)
            else:
                assert "E2E" in page.text  # the consent page names the client
                reply = browser.post(urljoin(url, "/oauth/consent"),
                                     data={**form, "decision": "approve"}, allow_redirects=False)
            assert reply.status_code in (302, 303), (path, reply.status_code, reply.text[:500])
            url = urljoin(url, reply.headers["Location"])
        raise AssertionError(f"consent did not finish: {self.pages}")

    async def redirect(self, authorization_url: str) -> None:
        await anyio.to_thread.run_sync(self._run, authorization_url)

    async def callback(self) -> AuthorizationCodeResult:
        assert self.result is not None
        return self.result


def _hidden_fields(page: str) -> dict:
    import re

    return dict(re.findall(r'<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"',
                           page))


class MetadataDocumentServer:
    """HTTPS server for one Client ID Metadata Document at /client.json."""

    def __init__(self, cert: Path, key: Path) -> None:
        documents = self.documents = {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = documents.get(self.path)
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body or b"{}")

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.url = f"https://localhost:{self.httpd.server_address[1]}/client.json"
        self.documents["/client.json"] = json.dumps({
            "client_id": self.url, "client_name": "E2E", "redirect_uris": [REDIRECT],
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "token_endpoint_auth_method": "none"}).encode()
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def served(served_app):
    """The shared served app, which trusts its cert_file, and an HTTPS document server on it."""
    documents = MetadataDocumentServer(served_app.cert_file, served_app.key_file)
    try:
        yield served_app, documents
    finally:
        documents.stop()


async def _session(server, *, metadata_url=None):
    """Connect, list tools, add an expense, read balances; return what was seen."""
    consent = ScriptedConsent()
    provider = OAuthClientProvider(
        server_url=server.url + "/mcp",
        client_metadata=OAuthClientMetadata(
            client_name="E2E", redirect_uris=[REDIRECT], scope=SCOPES,
            grant_types=["authorization_code", "refresh_token"], response_types=["code"],
            token_endpoint_auth_method="none"),
        storage=MemoryStorage(), redirect_handler=consent.redirect,
        callback_handler=consent.callback, client_metadata_url=metadata_url)
    async with httpx2.AsyncClient(auth=provider, timeout=60) as http:
        async with Client(streamable_http_client(server.url + "/mcp", http_client=http)) as mcp:
            tools = await mcp.list_tools()
            groups = await mcp.call_tool("list_groups", {})
            group = groups.structured_content["items"][0]
            before = await mcp.call_tool("get_balances", {"groupId": group["groupId"]})
            added = await mcp.call_tool("add_expense", {
                "groupId": group["groupId"], "description": "Pizza", "amount": "12.30",
                "payments": [{"participantId": group["myParticipantId"], "amount": "12.30"}],
                "splitMode": "EQUAL",
                "splits": [{"participantId": p["participantId"]}
                           for p in before.structured_content["balances"]],
                "idempotencyKey": f"pizza-{metadata_url is None}"})
            after = await mcp.call_tool("get_balances", {"groupId": group["groupId"]})
    return consent, provider, tools, group, before, added, after


def _net(result, participant_id: str) -> int:
    return next(b["net"] for b in result.structured_content["balances"]
                if b["participantId"] == participant_id)


@pytest.mark.parametrize("registration", ["dynamic", "metadata-document"])
def test_the_sdk_connects_authorizes_and_adds_an_expense(served, registration):
    server, documents = served
    token, _ = sign_in(server, EMAIL)
    status, group = call("POST", server.url + "/groups", {"name": "Trip", "currency": "EUR"},
                         token=token)
    assert status == 201, group
    status, _guest = call("POST", f"{server.url}/groups/{group['groupId']}/participants",
                          {"displayName": "Bob"}, token=token)
    assert status == 201

    metadata_url = documents.url if registration == "metadata-document" else None
    consent, provider, tools, listed, before, added, after = anyio.run(
        lambda: _session(server, metadata_url=metadata_url))

    client_id = provider.context.client_info.client_id
    if metadata_url:
        assert client_id == metadata_url  # no registration: the document's URL is the id
    else:
        assert client_id and not client_id.startswith("https://")  # issued by /oauth/register
    assert any(path.endswith("/consent") for path in consent.pages)
    assert {t.name for t in tools.tools} >= {"list_groups", "get_balances", "add_expense"}
    assert added.is_error is False, added.content
    assert added.structured_content["amount"] == 1230
    assert added.structured_content["amountFormatted"] == "12.30 EUR"
    me = listed["myParticipantId"]
    gained = _net(after, me) - _net(before, me)
    assert gained == 1230 - 615  # paid 12.30, owes half
    # The connection shows up for the user, named as the client registered itself.
    status, connections = call("GET", server.url + "/users/me/connections", token=token)
    assert status == 200 and any(c.get("clientName", c.get("client")) == "E2E"
                                 for c in connections["items"]), connections
