"""AWS sign-in wiring: without a hosted UI configured the flow stops on a page, with one it
sends the browser to Cognito with PKCE and the request as state."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from authlib.oauth2.rfc7636 import create_s256_code_challenge

from app.oauth import sessions


def _as_deployed(app, **changes):
    runtime = app.extensions["tailspend"]
    original = runtime.settings
    runtime.settings = original._replace(local_mode=False, **changes)
    return runtime, original


def test_authorize_in_aws_goes_to_the_hosted_ui(oauth, app, client):
    runtime, original = _as_deployed(app, cognito_domain="https://ts.auth.eu-west-1.amazoncognito.com",
                                     mcp_cognito_client_id="consent-client",
                                     public_base_url="https://api.tailspend.example")
    try:
        url = oauth.authorize_url(resource="https://api.tailspend.example/mcp")
        reply = client.get(url)
        assert reply.status_code == 302
        target = urlsplit(reply.headers["Location"])
        assert target.netloc == "ts.auth.eu-west-1.amazoncognito.com"
        query = parse_qs(target.query)
        request_id = query["state"][0]
        assert query["redirect_uri"] == ["https://api.tailspend.example/oauth/callback"]
        assert query["client_id"] == ["consent-client"]
        assert query["code_challenge"] == [create_s256_code_challenge(
            sessions.hosted_ui_verifier(request_id))]
        assert client.get(f"/oauth/login?request={request_id}").status_code == 404  # local only
        assert client.get("/oauth/callback?state=nope&code=x").status_code == 400
        runtime.settings = runtime.settings._replace(cognito_domain=None)
        assert client.get(url).status_code == 503  # no sign-in configured: a page, no redirect
    finally:
        runtime.settings = original
