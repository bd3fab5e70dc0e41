"""The grant chain under real concurrency (threads against the serialized embedded endpoint).

One code, exchanged by several clients at once: exactly one gets tokens. One refresh token,
rotated by several at once: at most one rotation succeeds and, since the token was presented
twice, the family ends revoked (RFC 9700 §4.14.2: reuse means theft)."""
from __future__ import annotations

import pytest

from app.oauth import access_tokens
from tests.mcp.conftest import Flow
from tests.support import threads

pytestmark = pytest.mark.race
RACERS = 4


@pytest.fixture
def live_flow(live_db, tmp_path):
    app = threads.live_app(live_db, tmp_path)
    access_tokens.grant_cache.clear()
    client = app.test_client()
    reply = client.post("/oauth/register", json={"redirect_uris": ["http://127.0.0.1:1/cb"]})
    return app, Flow(client, reply.get_json()["client_id"], "http://127.0.0.1:1/cb")


def _fresh(app, flow):
    """A Flow on its own test client (cookies are per client), same registered client."""
    return Flow(app.test_client(), flow.client_id, flow.redirect_uri)


def test_a_code_exchanged_concurrently_yields_tokens_once(live_flow):
    app, flow = live_flow
    for _ in range(2):  # bounded rounds
        code = flow.code()
        statuses = threads.together([lambda: _fresh(app, flow).exchange(code).status_code
                              for _ in range(RACERS)])
        assert sorted(statuses) == [200] + [400] * (RACERS - 1)


def test_a_refresh_token_rotated_concurrently_revokes_its_family(live_flow):
    app, flow = live_flow
    for _ in range(2):
        tokens = flow.tokens()
        replies = threads.together([lambda: _fresh(app, flow).refresh(tokens["refresh_token"])
                             for _ in range(RACERS)])
        statuses = sorted(r.status_code for r in replies)
        assert statuses.count(200) <= 1 and statuses.count(400) >= RACERS - 1
        for reply in replies:
            if reply.status_code == 200:  # the winner's new token dies with the family
                assert flow.refresh(reply.get_json()["refresh_token"]).status_code == 400
