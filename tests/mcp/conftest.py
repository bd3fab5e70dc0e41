"""OAuth flow helpers: a registered client, PKCE pairs, and the browser steps as a script."""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from app.oauth import access_tokens, clients

BASE = "http://localhost"
RESOURCE = f"{BASE}/mcp"
REDIRECT = "http://127.0.0.1:8765/callback"
VERIFIER = "v" * 43 + "-verifier._~0123456789"


@dataclass
class Flow:
    client: object
    client_id: str
    redirect_uri: str = REDIRECT

    def authorize_url(self, **overrides) -> str:
        params = {"response_type": "code", "client_id": self.client_id,
                  "redirect_uri": self.redirect_uri, "state": "st-1",
                  "code_challenge": create_s256_code_challenge(VERIFIER),
                  "code_challenge_method": "S256", "scope": "groups:read expenses:write",
                  "resource": RESOURCE}
        params.update(overrides)
        return "/oauth/authorize?" + urlencode({k: v for k, v in params.items() if v is not None})

    def start(self, **overrides) -> str:
        """GET authorize -> the request id of the stored, unapproved request."""
        reply = self.client.get(self.authorize_url(**overrides))
        assert reply.status_code == 302, reply.get_data(as_text=True)
        return parse_qs(urlsplit(reply.headers["Location"]).query)["request"][0]

    def sign_in(self, request_id: str, email: str = "ann@example.com") -> None:
        page = self.client.get(f"/oauth/login?request={request_id}").get_data(as_text=True)
        reply = self.client.post("/oauth/login", data={
            "request": request_id, "csrf": hidden(page, "csrf"), "email": email})
        assert reply.status_code == 303, reply.get_data(as_text=True)

    def consent_page(self, request_id: str):
        return self.client.get(f"/oauth/consent?request={request_id}")

    def decide(self, request_id: str, decision: str = "approve", csrf: str | None = None):
        if csrf is None:
            csrf = hidden(self.consent_page(request_id).get_data(as_text=True), "csrf")
        return self.client.post("/oauth/consent", data={"request": request_id, "csrf": csrf,
                                                        "decision": decision})

    def code(self, email: str = "ann@example.com", **overrides) -> str:
        request_id = self.start(**overrides)
        self.sign_in(request_id, email)
        reply = self.decide(request_id)
        assert reply.status_code == 302, reply.get_data(as_text=True)
        query = parse_qs(urlsplit(reply.headers["Location"]).query)
        assert query["state"] == ["st-1"] and query["iss"] == [BASE]
        return query["code"][0]

    def exchange(self, code: str, **overrides):
        form = {"grant_type": "authorization_code", "code": code, "code_verifier": VERIFIER,
                "redirect_uri": self.redirect_uri, "client_id": self.client_id,
                "resource": RESOURCE}
        form.update(overrides)
        return self.client.post("/oauth/token", data={k: v for k, v in form.items()
                                                      if v is not None})

    def tokens(self, email: str = "ann@example.com") -> dict:
        reply = self.exchange(self.code(email))
        assert reply.status_code == 200, reply.get_json()
        return reply.get_json()

    def refresh(self, refresh_token: str, **overrides):
        form = {"grant_type": "refresh_token", "refresh_token": refresh_token,
                "client_id": self.client_id}
        form.update(overrides)
        return self.client.post("/oauth/token", data=form)


def hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert match, page
    return match.group(1)


@pytest.fixture
def oauth(app, client):
    """A registered public client and the flow script for it."""
    access_tokens.grant_cache.clear()
    clients.clear_cache()
    reply = client.post("/oauth/register", json={"client_name": "Claude",
                                                 "redirect_uris": [REDIRECT]})
    assert reply.status_code == 201, reply.get_json()
    return Flow(client, reply.get_json()["client_id"])
