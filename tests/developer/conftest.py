"""Developer fixtures: a signed-in user and personal access tokens minted through the API."""
from __future__ import annotations

import time

import pytest

from app.developer.limits import Limiter, Limits


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


def pin_limits(app, **values) -> None:
    """New limits and a frozen clock, so a window never rolls over mid-test."""
    now = time.time()
    app.extensions["developer"].limiter = Limiter(Limits(**values), clock=lambda: now)


@pytest.fixture
def limits(app):
    """Swap the app's limiter for one test (the session app is shared), restoring it after."""
    saved = app.extensions["developer"].limiter
    yield lambda **values: pin_limits(app, **values)
    app.extensions["developer"].limiter = saved
