"""Admin rights come only from a ``cognito:groups`` list naming "admin", never a substring."""
from __future__ import annotations

import time
import uuid
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives import serialization

from app.auth.local_issuer import KEY_FILE, subject_for_email


def _token(app, settings, email: str, groups) -> str:
    """A token signed with the local issuer's key, carrying ``groups`` exactly as given."""
    issuer = app.extensions["tailspend"].issuer
    key = serialization.load_pem_private_key((Path(settings.data_dir) / KEY_FILE).read_bytes(),
                                             password=None)
    now = int(time.time())
    sub = subject_for_email(email)
    claims = {"sub": sub, "iss": issuer.issuer, "client_id": issuer.client_id,
              "token_use": "access", "iat": now, "exp": now + 600, "jti": str(uuid.uuid4()),
              "username": sub, "cognito:groups": groups}
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": issuer.kid})


@pytest.mark.parametrize("groups", ["admin", "sysadmin", "administrators", {"admin": True},
                                    ["sysadmin"], [["admin"]]])
def test_groups_claim_that_is_not_a_list_naming_admin_grants_nothing(client, app, settings,
                                                                     sign_in, groups):
    sign_in("claims@example.com")  # provisions the user behind the subject
    headers = {"Authorization": f"Bearer {_token(app, settings, 'claims@example.com', groups)}"}
    assert client.get("/users/me", headers=headers).status_code == 200  # a valid sign-in
    reply = client.get("/admin/users", headers=headers)
    assert reply.status_code == 403
    assert reply.get_json()["error"]["code"] == "FORBIDDEN"


def test_groups_list_naming_admin_is_an_admin(client, app, settings, sign_in):
    sign_in("claims@example.com")
    headers = {"Authorization": f"Bearer {_token(app, settings, 'claims@example.com', ['x', 'admin'])}"}
    assert client.get("/admin/users", headers=headers).status_code == 200
