"""Budgets and limits under real concurrency (threads against the serialized embedded endpoint).

Documented slack: zero. Each counter is one conditional ADD, so however many requests race,
exactly ``limit`` are admitted."""
from __future__ import annotations

import pytest

from tests.developer.conftest import pin_limits
from tests.support import threads

pytestmark = pytest.mark.race


@pytest.fixture
def live_app(live_db, tmp_path):
    return threads.live_app(live_db, tmp_path)


def _pat(app, *scopes):
    client = app.test_client()
    token = client.post("/dev/tokens", json={"email": "racer@example.com"}).get_json()
    headers = {"Authorization": f"Bearer {token['accessToken']}"}
    reply = client.post("/developer/tokens", headers=headers,
                        json={"name": "race", "scopes": list(scopes)}).get_json()
    return {"Authorization": f"Bearer {reply['token']}"}


def _get(app, headers):
    return lambda: app.test_client().get("/users/me/groups", headers=headers).status_code


def test_two_requests_at_the_budget_edge_exactly_the_budget_is_admitted(live_app):
    pat = _pat(live_app, "groups:read")
    pin_limits(live_app, daily_requests=3)
    assert [_get(live_app, pat)() for _ in range(2)] == [200, 200]  # one left in the budget

    assert sorted(threads.together([_get(live_app, pat), _get(live_app, pat)])) == [200, 429]


def test_many_parallel_requests_never_exceed_the_per_token_limit(live_app):
    pat = _pat(live_app, "groups:read")
    pin_limits(live_app, pat_per_minute=4)

    codes = threads.together([_get(live_app, pat) for _ in range(10)])
    assert codes.count(200) == 4 and codes.count(429) == 6
