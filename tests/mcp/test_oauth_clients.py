"""Clients: RFC 7591 registration rules, Client ID Metadata Documents and the SSRF guard."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from app.errors import OAuthError
from app.oauth import clients
from tests.mcp.conftest import REDIRECT


@pytest.fixture
def documents():
    """A local HTTP server for metadata documents: path -> (status, body, headers)."""
    routes = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            status, body, headers = routes.get(self.path, (404, b"", {}))
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"

    def serve(path, document=None, *, status=200, raw=None, headers=None):
        body = raw if raw is not None else json.dumps(document).encode()
        routes[path] = (status, body, headers or {"Content-Type": "application/json"})
        return base + path

    yield serve
    server.shutdown()
    thread.join()
    clients.clear_cache()


def test_registration_accepts_https_and_loopback_http_only(client, app):
    ok = client.post("/oauth/register", json={
        "redirect_uris": ["https://claude.ai/api/mcp/auth_callback", "http://localhost:33418/cb",
                          "http://[::1]:9/cb"], "client_name": "Claude", "scope": "ignored",
        "token_endpoint_auth_method": "none", "grant_types": ["authorization_code",
                                                             "refresh_token"]})
    assert ok.status_code == 201, ok.get_json()
    body = ok.get_json()
    assert body["client_id"] and body["token_endpoint_auth_method"] == "none"
    for uris, error in [(["http://example.com/cb"], "invalid_redirect_uri"),
                        (["https://example.com/cb#frag"], "invalid_redirect_uri"),
                        (["myapp://cb"], "invalid_redirect_uri"),
                        ([], "invalid_redirect_uri")]:
        reply = client.post("/oauth/register", json={"redirect_uris": uris})
        assert reply.status_code == 400 and reply.get_json()["error"] == error, uris
    secret = client.post("/oauth/register", json={"redirect_uris": [REDIRECT],
                                                  "token_endpoint_auth_method": "client_secret_basic"})
    assert secret.status_code == 400
    assert secret.get_json()["error"] == "invalid_client_metadata"


def test_a_metadata_document_client_completes_authorize(oauth, client, documents):
    url = documents("/client.json", None)
    documents("/client.json", {"client_id": url, "client_name": "Doc Client",
                               "redirect_uris": [REDIRECT]})
    oauth.client_id = url
    request_id = oauth.start()
    oauth.sign_in(request_id)
    page = oauth.consent_page(request_id).get_data(as_text=True)
    assert "Doc Client" in page and "127.0.0.1" in page
    assert oauth.exchange(oauth.code()).status_code == 200


def test_metadata_documents_that_do_not_match_are_refused(app, documents):
    wrong_id = documents("/wrong-id.json", {"client_id": "https://elsewhere.example/c.json",
                                            "redirect_uris": [REDIRECT]})
    bad_uris = documents("/bad-uris.json", None)
    documents("/bad-uris.json", {"client_id": bad_uris, "redirect_uris": ["http://evil.example/"]})
    moved = documents("/moved.json", status=302, raw=b"",
                      headers={"Location": wrong_id})
    huge = documents("/huge.json", raw=b" " * (clients.MAX_DOCUMENT_BYTES + 10))
    not_json = documents("/html.json", raw=b"<html>")
    missing = documents("/missing.json", status=404, raw=b"")
    for url in (wrong_id, bad_uris, moved, huge, not_json, missing):
        with pytest.raises(OAuthError) as refused:
            clients.resolve(url, allow_private=True)
        assert refused.value.error == "invalid_client", url


def test_a_redirect_uri_outside_the_document_is_refused(oauth, client, documents):
    url = documents("/client.json", None)
    documents("/client.json", {"client_id": url, "redirect_uris": ["http://127.0.0.1:1/other"]})
    reply = client.get(oauth.authorize_url(client_id=url))
    assert reply.status_code == 400 and "Location" not in reply.headers


@pytest.mark.parametrize("url", [
    "https://127.0.0.1/client.json", "https://169.254.169.254/latest/meta-data/",
    "https://localhost/client.json", "https://10.0.0.8/client.json",
    "https://[::1]/client.json", "https://[::ffff:127.0.0.1]/client.json",
    "https://0.0.0.0/client.json", "http://example.com/client.json",
    "https://example.com", "https://user@example.com/client.json",
])
def test_the_deployed_service_never_fetches_private_addresses(url):
    with pytest.raises(OAuthError) as refused:
        clients.fetch_document(url, allow_private=False)
    assert refused.value.error == "invalid_client"


def test_authorize_refuses_an_ssrf_client_id_outside_local_mode(oauth, app, client, documents):
    local_url = documents("/client.json", None)
    documents("/client.json", {"client_id": local_url, "redirect_uris": [REDIRECT]})
    runtime = app.extensions["tailspend"]
    original = runtime.settings
    runtime.settings = original._replace(mcp_fetch_private=False)  # as deployed
    try:
        for client_id in (local_url, "https://169.254.169.254/latest/meta-data/iam",
                          "https://127.0.0.1/client.json"):
            reply = client.get(oauth.authorize_url(client_id=client_id))
            assert reply.status_code == 400 and "Location" not in reply.headers, client_id
            assert "private address" in reply.get_data(as_text=True) or \
                "https" in reply.get_data(as_text=True)
    finally:
        runtime.settings = original
    assert original.allow_private_client_fetch  # local mode may, which the other tests use


def test_public_addresses_pass_the_check():
    assert clients.public_address("93.184.216.34")
    assert not clients.public_address("100.64.0.1")  # carrier-grade NAT is not public
    assert not clients.public_address("fd00::1")
