"""Redirect URIs are read strictly (WHATWG differences refused), and /oauth/authorize
redirects an error only to a validated client's registered URI, and only for the errors
RFC 6749 §4.1.2.1 lists (issue 20, items 10 and 11)."""
from __future__ import annotations

import pytest

from app.oauth import clients
from tests.mcp.conftest import REDIRECT

# Each is read by a browser differently from urlsplit, or hides its real host.
REFUSED_URIS = [
    "https://evil.example\\.bank.example/cb",   # a browser goes to evil.example
    "https://evil.example\\@bank.example/cb",
    "https://bank.example@evil.example/cb",     # userinfo
    "https://bank.example:x@evil.example/cb",
    "https://bank.example/c b",                 # space
    "https://bank.example/\tcb",                # tab (a browser removes it)
    "https://bank.example/cb\n",
    "https://bank.example/\x00cb",
    "https://bank.example/\u202ecb",            # bidi override
    "https://bank.example/cb#frag",
    "https:///evil.example/cb",                 # a browser skips the extra slash
    "https:evil.example/cb",
    "https://0x7f.1/cb",                        # a browser reads 127.0.0.1
    "https://bank.example:/cb",
    "https://bank.example:99999/cb",
    "https://[::1%25lo]/cb",
    "http://example.com/cb",                    # plain http off loopback (as before)
]


@pytest.mark.parametrize("uri", REFUSED_URIS)
def test_registration_refuses_a_uri_a_browser_reads_differently(client, app, uri):
    reply = client.post("/oauth/register", json={"redirect_uris": [uri]})
    assert reply.status_code == 400, reply.get_json()
    assert reply.get_json()["error"] == "invalid_redirect_uri"
    assert not clients.valid_redirect_uri(uri)  # and so no metadata document may name it


@pytest.mark.parametrize("uri", [
    "https://claude.ai/api/mcp/auth_callback", "https://bank.example:8443/cb?x=1&y=%2F",
    "http://127.0.0.1:8765/callback", "http://[::1]:9/cb", "https://xn--bcher-kva.example/cb",
])
def test_ordinary_redirect_uris_still_register(client, app, uri):
    reply = client.post("/oauth/register", json={"redirect_uris": [uri]})
    assert reply.status_code == 201, reply.get_json()


def test_authorize_refuses_a_stored_uri_a_browser_reads_differently(oauth, client):
    """A client stored before the strict rules (written directly here) gets a page."""
    from app.core.clock import now_iso
    from models.users import McpClient
    bad = "https://evil.example\\.bank.example/cb"
    McpClient(*McpClient.key(oauth.client_id), ClientName="Old", RedirectUris=[bad],
              CreatedAt=now_iso()).save()
    oauth.redirect_uri = bad
    for response_type in ("code", "token"):
        reply = client.get(oauth.authorize_url(response_type=response_type))
        assert reply.status_code == 400 and "Location" not in reply.headers


NO_REDIRECT = [
    # (description, query overrides, extra raw query)
    ("bad response_type, a redirect_uri the client did not register",
     {"response_type": "token", "redirect_uri": "https://evil.example/cb"}, ""),
    ("bad response_type, no redirect_uri", {"response_type": "token", "redirect_uri": None}, ""),
    ("bad response_type, unknown client", {"response_type": "token", "client_id": "nope"}, ""),
    ("bad response_type, a registered client's URI plus a path",
     {"response_type": "token", "redirect_uri": REDIRECT + "/x"}, ""),
    ("redirect_uri repeated", {"response_type": "token"}, "&redirect_uri=https://evil.example/cb"),
    ("client_id repeated", {"response_type": "token"}, "&client_id=nope"),
    ("an error §4.1.2.1 does not list (invalid_target)",
     {"resource": "https://other.example/mcp"}, ""),
]


@pytest.mark.parametrize("overrides,extra", [case[1:] for case in NO_REDIRECT],
                         ids=[case[0] for case in NO_REDIRECT])
def test_authorize_answers_a_page_never_a_redirect(oauth, client, overrides, extra):
    reply = client.get(oauth.authorize_url(**overrides) + extra)
    assert reply.status_code == 400, reply.headers.get("Location")
    assert "Location" not in reply.headers and reply.mimetype == "text/html"


def test_a_listed_error_before_sign_in_is_a_page_not_a_redirect(oauth, client):
    """RFC 9700 §4.11.2: a signed-out browser is never sent to a dynamically registered
    redirect URI; the error is shown here."""
    for overrides, error in (({"response_type": "x"}, "unsupported_response_type"),
                             ({"response_type": "token"}, "unsupported_response_type"),
                             ({"scope": "admin"}, "invalid_scope")):
        reply = client.get(oauth.authorize_url(**overrides))
        assert reply.status_code == 400 and "Location" not in reply.headers, error
        assert error in reply.get_data(as_text=True)
    repeated = client.get(oauth.authorize_url() + "&scope=groups:read")
    assert repeated.status_code == 400 and "Location" not in repeated.headers
