"""A scripted browser for the local consent flow, for tests against `python -m app serve`.

``scripted_consent(authorization_url, email)`` does what a person does: opens the URL an
OAuth client produced, signs in on the local form, approves on the consent page, and returns
the URL the server sent the browser back to (the client's redirect URI with code, state and
iss), without fetching it. Give it to an OAuth client's callback handler (e.g. the mcp SDK's
``OAuthClientProvider`` ``callback_handler``) to finish the flow."""
from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request


class _StopAtClient(urllib.request.HTTPRedirectHandler):
    """Follow redirects within the authorization server; stop at any other origin."""

    def __init__(self, server_origin: str) -> None:
        self.server_origin = server_origin
        self.stopped_at: str | None = None

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if not newurl.startswith(self.server_origin + "/"):
            self.stopped_at = newurl
            return None
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', page)
    if not match:
        raise AssertionError(f"no {name} field on the page: {page[:500]}")
    return match.group(1)


def scripted_consent(authorization_url: str, email: str = "assistant-user@example.com",
                     decision: str = "approve", timeout: float = 30) -> str:
    parts = urllib.parse.urlsplit(authorization_url)
    origin = f"{parts.scheme}://{parts.netloc}"
    stop = _StopAtClient(origin)
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), stop)

    def fetch(url: str, form: dict | None = None) -> tuple[str, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with opener.open(urllib.request.Request(url, data=data), timeout=timeout) as reply:
                return reply.geturl(), reply.read().decode()
        except urllib.error.HTTPError as error:
            if stop.stopped_at:
                return stop.stopped_at, ""
            raise AssertionError(f"{url}: {error.code} {error.read()[:500]!r}") from None

    url, page = fetch(authorization_url)
    if stop.stopped_at:
        return stop.stopped_at  # an error sent straight back to the client
    if "/oauth/login" in url:
        url, page = fetch(origin + "/oauth/login", {
            "request": _hidden(page, "request"), "csrf": _hidden(page, "csrf"), "email": email})
    fetch(origin + "/oauth/consent", {"request": _hidden(page, "request"),
                                      "csrf": _hidden(page, "csrf"), "decision": decision})
    if not stop.stopped_at:
        raise AssertionError("the consent page did not send the browser back to the client")
    return stop.stopped_at
