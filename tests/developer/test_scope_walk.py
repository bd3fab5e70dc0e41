"""Walk /openapi.json: every operation declares its PAT policy, and the server enforces it.

Table-driven from the served document, so a new route is covered the moment it is documented:
an operation must be public (security []), app-only (x-pat-scope "none": PATs get 403
PAT_NOT_ALLOWED) or name exactly one scope (a PAT without it gets 403 PAT_SCOPE, a PAT with it
is never refused for scope)."""
from __future__ import annotations

import re

from app.api.pat import SCOPES

ZERO = "00000000-0000-4000-8000-000000000000"


def _operations(client):
    doc = client.get("/openapi.json").get_json()
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield method, path, operation


def test_every_operation_declares_its_pat_policy(client):
    seen = 0
    for method, path, operation in _operations(client):
        seen += 1
        policy, security = operation.get("x-pat-scope"), operation.get("security")
        # A share-link session is one more alternative on the operations that admit it
        # (tests/groups/test_share_links.py); the PAT policy is the rest.
        security = [s for s in security or [] if s != {"linkSession": []}]
        assert policy in ("public", "none", *SCOPES), (method, path)
        if policy == "public":
            assert security == [], (method, path)
        elif policy == "none":
            assert security == [{"bearerAuth": []}], (method, path)
        else:
            assert security == [{"bearerAuth": []}, {"personalAccessToken": [policy]}], (method, path)
    assert seen > 40


REFUSED_TO_PATS = [("post", "/developer/tokens"), ("get", "/developer/tokens"),
                   ("delete", "/developer/tokens/{tokenId}"), ("get", "/admin/users"),
                   ("patch", "/groups/{groupId}/participants/{participantId}"),
                   ("patch", "/users/me"), ("post", "/groups/{groupId}/invite/rotate")]


def test_sensitive_operations_are_documented_as_refusing_pats(client):
    policies = {(m, p): op["x-pat-scope"] for m, p, op in _operations(client)}
    for key in REFUSED_TO_PATS:
        assert policies[key] == "none", key


def test_the_server_enforces_every_documented_policy(client, owner, mint):
    group = client.post("/groups", headers=owner[0], json={"name": "Walk", "currency": "EUR"}).get_json()
    everything, _ = mint(*SCOPES)
    only = {scope: mint(scope)[0] for scope in SCOPES}
    checked = 0
    for method, path, operation in _operations(client):
        policy = operation["x-pat-scope"]
        if policy == "public":
            continue
        url = re.sub(r"\{groupId\}", group["groupId"], path)
        url = re.sub(r"\{(?:[a-zA-Z]+Id|id)\}", ZERO, url)  # trash restore: {id}
        call = getattr(client, method)
        body = {} if method in ("post", "patch", "put") else None
        if path == "/mcp":  # takes only MCP access tokens: a PAT is not a credential there
            for headers in [everything, *only.values()]:
                reply = call(url, headers=headers, json=body)
                assert reply.status_code == 401, (method, path, reply.get_json())
                assert "resource_metadata=" in reply.headers["WWW-Authenticate"]
            checked += 1
            continue
        if policy == "none":
            for headers in [everything, *only.values()]:
                reply = call(url, headers=headers, json=body)
                assert reply.status_code == 403, (method, path, reply.get_json())
                assert reply.get_json()["error"]["details"]["reason"] == "PAT_NOT_ALLOWED"
        else:
            for scope, headers in only.items():
                reply = call(url, headers=headers, json=body)
                details = (reply.get_json(silent=True) or {}).get("error", {}).get("details", {})
                if scope == policy:
                    assert details.get("reason") not in ("PAT_SCOPE", "PAT_NOT_ALLOWED"), (method, path)
                    assert reply.status_code < 500
                else:
                    assert reply.status_code == 403 and details == {
                        "reason": "PAT_SCOPE", "requiredScope": policy}, (method, path)
        checked += 1
    assert checked > 40
