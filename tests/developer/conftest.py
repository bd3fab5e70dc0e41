"""Developer fixtures: a signed-in user and personal access tokens minted through the API."""
from __future__ import annotations

import pytest

from app.services.developer.limits import Limits


@pytest.fixture
def owner(sign_in):
    headers, user_id = sign_in("dev-owner@example.com")
    return headers, user_id


@pytest.fixture
def mint(client, owner):
    """mint(*scopes, days=90) -> (pat headers, reply body) via POST /developer/tokens."""

    def _mint(*scopes, days: int = 90, name: str = "script"):
        reply = client.post("/developer/tokens", headers=owner[0],
                            json={"name": name, "scopes": list(scopes), "expiresInDays": days})
        assert reply.status_code == 201, reply.get_json()
        body = reply.get_json()
        return {"Authorization": f"Bearer {body['token']}"}, body

    return _mint


@pytest.fixture
def limits(app):
    """Swap the app's limits for one test (the session app is shared), restoring them after."""
    limiter = app.extensions["developer"].limiter
    saved = limiter.limits

    def _set(**values):
        limiter.limits = Limits(**{**saved.__dict__, **values})

    yield _set
    limiter.limits = saved
