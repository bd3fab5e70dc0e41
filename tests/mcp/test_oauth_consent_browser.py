"""The sign-in and consent pages in a real headless Chromium: they render with their own
stylesheet, Allow works under the pages' CSP (form-action must admit the client's redirect),
and the browser asks no host but this server and the client's redirect URI."""
from __future__ import annotations

import json
import os
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from werkzeug.serving import make_server

from app.oauth import access_tokens
from tests.contract.browser import INSTALL_HINT, Browser, chromium_path
from tests.mcp.conftest import VERIFIER


@pytest.fixture
def server_url(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture
def redirect_target():
    """The MCP client's loopback redirect URI: records each query it receives."""
    received = []

    class Callback(BaseHTTPRequestHandler):
        def do_GET(self):  # http.server's name
            if urlsplit(self.path).path == "/callback":  # not the browser's /favicon.ico
                received.append(parse_qs(urlsplit(self.path).query))
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"connected")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Callback)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/callback", received
    server.shutdown()
    thread.join()


@pytest.fixture
def browser():
    executable = chromium_path()
    if not executable or not os.access(executable, os.X_OK):
        pytest.fail(INSTALL_HINT)  # a missing browser must not pass as a skipped test
    page = Browser(executable)
    try:
        page.send("Network.enable")
        page.send("Page.enable")
        yield page
    finally:
        page.close()


def _post(url, form):
    call = urllib.request.Request(url, data=urlencode(form).encode(), method="POST")
    with urllib.request.urlopen(call, timeout=10) as reply:
        return json.loads(reply.read())


def test_consent_in_chromium_renders_approves_and_stays_local(server_url, redirect_target,
                                                               browser, tmp_path):
    access_tokens.grant_cache.clear()
    redirect_uri, received = redirect_target
    registered = urllib.request.Request(
        server_url + "/oauth/register", method="POST",
        data=json.dumps({"client_name": "Claude Desktop", "redirect_uris": [redirect_uri]}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(registered, timeout=10) as reply:
        client_id = json.loads(reply.read())["client_id"]
    authorize = server_url + "/oauth/authorize?" + urlencode({
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
        "state": "xyz", "code_challenge": create_s256_code_challenge(VERIFIER),
        "code_challenge_method": "S256", "scope": "groups:read expenses:write",
        "resource": server_url + "/mcp"})

    browser.send("Page.navigate", {"url": authorize})
    browser.wait_for("!!document.querySelector('#sign-in')", what="the local sign-in form")
    browser.evaluate("document.querySelector('#email').value = 'ann@example.com'")
    browser.click("document.querySelector('#sign-in')")
    browser.wait_for("!!document.querySelector('#approve')", what="the consent page")
    assert browser.evaluate("document.querySelector('#client-name').textContent") == \
        "Claude Desktop"
    assert browser.evaluate("document.querySelector('#redirect-host').textContent") == \
        urlsplit(redirect_uri).netloc
    scopes = browser.evaluate("document.querySelector('#scopes').textContent")
    assert "groups:read" in scopes and "expenses:write" in scopes
    # Our stylesheet applied (the CSP admits 'self' styles; nothing inline, no CDN).
    assert browser.evaluate("getComputedStyle(document.querySelector('#approve'))"
                            ".backgroundColor") == "rgb(11, 110, 79)"
    browser.screenshot(os.environ.get("TAILSPEND_CONSENT_SCREENSHOT")
                       or str(tmp_path / "consent.png"))

    browser.click("document.querySelector('#approve')")
    browser.wait_for("document.body && document.body.textContent === 'connected'",
                     what="the client's redirect URI reached")
    assert len(received) == 1
    answer = received[0]
    assert answer["state"] == ["xyz"] and answer["iss"] == [server_url]
    tokens = _post(server_url + "/oauth/token", {
        "grant_type": "authorization_code", "code": answer["code"][0],
        "code_verifier": VERIFIER, "redirect_uri": redirect_uri, "client_id": client_id,
        "resource": server_url + "/mcp"})
    assert tokens["token_type"] == "Bearer" and tokens["refresh_token"]

    allowed = {urlsplit(server_url).netloc, urlsplit(redirect_uri).netloc}
    urls = browser.requested_urls()
    assert any(u.endswith("/oauth/assets/consent.css") for u in urls)
    elsewhere = [u for u in urls if urlsplit(u).scheme not in ("data", "blob")
                 and urlsplit(u).netloc not in allowed]
    assert elsewhere == [], "the consent flow asked another host: " + ", ".join(elsewhere)
