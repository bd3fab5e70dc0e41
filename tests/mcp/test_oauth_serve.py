"""Against a real `python -m app serve`: discovery, registration, authorize with a scripted
consent, token and refresh, over real sockets (what an MCP client does before its first call)."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlencode, urlsplit

from authlib.oauth2.rfc7636 import create_s256_code_challenge

from tests.local.serving import call
from tests.mcp.consent_script import scripted_consent
from tests.mcp.conftest import VERIFIER

REDIRECT = "http://127.0.0.1:33418/callback"


def _form(url, form):
    request = urllib.request.Request(url, data=urlencode(form).encode(), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_discovery_register_authorize_and_token_against_serve(served_app):
    server = served_app
    base = server.url
    status, resource = call("GET", base + "/.well-known/oauth-protected-resource/mcp")
    assert status == 200 and resource["resource"] == base + "/mcp"
    (issuer,) = resource["authorization_servers"]
    status, metadata = call("GET", issuer + "/.well-known/oauth-authorization-server")
    assert status == 200 and metadata["issuer"] == issuer
    status, client = call("POST", metadata["registration_endpoint"],
                          {"client_name": "Script", "redirect_uris": [REDIRECT]})
    assert status == 201, client

    authorization = metadata["authorization_endpoint"] + "?" + urlencode({
        "response_type": "code", "client_id": client["client_id"], "redirect_uri": REDIRECT,
        "state": "s1", "code_challenge": create_s256_code_challenge(VERIFIER),
        "code_challenge_method": "S256", "resource": resource["resource"]})
    back = scripted_consent(authorization, "script@example.com")
    assert back.startswith(REDIRECT)
    answer = parse_qs(urlsplit(back).query)
    assert answer["state"] == ["s1"] and answer["iss"] == [issuer]

    status, tokens = _form(metadata["token_endpoint"], {
        "grant_type": "authorization_code", "code": answer["code"][0],
        "code_verifier": VERIFIER, "redirect_uri": REDIRECT,
        "client_id": client["client_id"], "resource": resource["resource"]})
    assert status == 200, tokens
    status, rotated = _form(metadata["token_endpoint"], {
        "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
        "client_id": client["client_id"]})
    assert status == 200 and rotated["refresh_token"] != tokens["refresh_token"]
    # The MCP token is for /mcp only.
    assert call("GET", base + "/users/me", token=rotated["access_token"])[0] == 401
