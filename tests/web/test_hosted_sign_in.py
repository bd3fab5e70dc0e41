"""Sign-in through the Cognito hosted UI with PKCE (issue 49; docs/web.md), when /app/config.json
says so (AWS). No Cognito is reachable here: the test stands in for the hosted UI and its token
endpoint (Playwright routes), checks what the app sends them against RFC 7636 (S256, the
state, the verifier the challenge was made of), and hands out real local-mode tokens so the
signed-in app works. Tokens stay in memory, and the refresh token renews the access token."""
from __future__ import annotations

import base64
import hashlib
import json
import re
import time
import uuid
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from tests.web.conftest import call

HOSTED = "https://auth.example.test"
CORS = {"Access-Control-Allow-Origin": "*", "Content-Type": "application/json"}


def _s256(verifier: str) -> str:
    """RFC 7636 4.2 by Python's hashlib: an implementation independent of the app's."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def _hosted_ui(phone, email: str, seen: dict) -> None:
    """Routes standing in for Cognito: the config, the authorize redirect, the token endpoint."""
    redirect = phone.url + "/app/signed-in"
    config = {"auth": "cognito", "domain": HOSTED, "clientId": "web-client", "redirectUri": redirect}
    phone.page.route("**/app/config.json", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(config)))

    def authorize(route):
        query = {k: v[0] for k, v in parse_qs(urlsplit(route.request.url).query).items()}
        seen["authorize"] = query
        route.fulfill(status=302, headers={"Location": f"{redirect}?code=the-code&state={query['state']}"})

    def token(route):
        if route.request.method == "OPTIONS":
            route.fulfill(status=204, headers={**CORS, "Access-Control-Allow-Headers": "Content-Type"})
            return
        form = {k: v[0] for k, v in parse_qs(route.request.post_data).items()}
        seen.setdefault("token", []).append(form)
        _, issued = call(phone.url, "POST", "/dev/tokens", None, {"email": email, "displayName": "Hana"})
        # The first access token ends 62 s from now: the app renews it a minute early.
        lifetime = 62 if form["grant_type"] == "authorization_code" else 3600
        route.fulfill(status=200, headers=CORS, body=json.dumps({
            "access_token": issued["accessToken"], "id_token": "unused", "token_type": "Bearer",
            "expires_in": lifetime, **({"refresh_token": "the-refresh-token"}
                                       if form["grant_type"] == "authorization_code" else {})}))

    phone.page.route(f"{HOSTED}/oauth2/authorize**", authorize)
    phone.page.route(f"{HOSTED}/oauth2/token", token)


def test_hosted_ui_sign_in_with_pkce_tokens_in_memory_and_refresh(phones):
    phone = phones()
    page = phone.page
    seen: dict = {}
    _hosted_ui(phone, f"hana-{uuid.uuid4().hex[:8]}@example.com", seen)
    phone.open()
    expect(page.get_by_role("textbox", name="E-mail")).to_have_count(0)  # no local sign-in
    phone.assert_accessible("hosted sign-in")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your groups")
    assert page.url == phone.url + "/app/"  # the code left the address bar

    sent = seen["authorize"]
    assert (sent["response_type"], sent["client_id"], sent["code_challenge_method"]) == ("code", "web-client", "S256")
    assert sent["redirect_uri"] == phone.url + "/app/signed-in" and len(sent["state"]) >= 32
    [exchange] = seen["token"]
    verifier = exchange["code_verifier"]
    assert re.fullmatch(r"[A-Za-z0-9\-._~]{43,128}", verifier)
    assert _s256(verifier) == sent["code_challenge"]
    assert (exchange["grant_type"], exchange["code"], exchange["client_id"]) == ("authorization_code", "the-code", "web-client")
    assert exchange["redirect_uri"] == sent["redirect_uri"]
    # In memory only: nothing a later script could read from storage.
    assert page.evaluate("localStorage.getItem('tailspend.session')") is None
    assert page.evaluate("sessionStorage.getItem('tailspend.pkce')") is None

    deadline = time.monotonic() + 15
    while len(seen["token"]) < 2:
        assert time.monotonic() < deadline, "the access token was not renewed before it ended"
        page.wait_for_timeout(200)
    renewal = seen["token"][1]
    assert renewal == {"grant_type": "refresh_token", "refresh_token": "the-refresh-token", "client_id": "web-client"}
    page.get_by_role("link", name="Create group").click()  # the renewed token works
    page.get_by_label("Group name").fill("Hosted")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hosted")


def test_a_redirect_with_another_state_is_refused(phones):
    phone = phones()
    page = phone.page
    seen: dict = {}
    _hosted_ui(phone, f"ivo-{uuid.uuid4().hex[:8]}@example.com", seen)
    phone.open("/app/signed-in?code=stolen&state=not-ours")
    expect(page.get_by_role("alert")).to_contain_text("Could not sign in: state mismatch")
    assert "token" not in seen  # the code was never sent
    phone.assert_accessible("hosted sign-in refused")
