"""The per-account token cap under parallel creates (real threads, serialized endpoint):
the count and the token are one conditional transaction, so exactly the cap is minted."""
from __future__ import annotations

import pytest

from app.developer import tokens
from models.developer_tokens import AccessToken
from tests.support import threads

pytestmark = pytest.mark.race
CAP = 5


@pytest.fixture
def live_app(live_db, tmp_path):
    return threads.live_app(live_db, tmp_path)


def test_parallel_creates_never_pass_the_cap(live_app, monkeypatch):
    monkeypatch.setattr(tokens, "MAX_TOKENS_PER_USER", CAP)
    client = live_app.test_client()
    signed = client.post("/dev/tokens", json={"email": "many@example.com"}).get_json()
    headers = {"Authorization": f"Bearer {signed['accessToken']}"}

    def create():
        return live_app.test_client().post("/developer/tokens", headers=headers, json={
            "name": "race", "scopes": ["groups:read"]}).status_code

    assert [create() for _ in range(CAP - 2)] == [201] * (CAP - 2)
    codes = threads.together([create for _ in range(8)])
    assert sorted(codes) == [201, 201] + [403] * 6
    assert len(list(AccessToken.for_owner(signed["userId"]))) == CAP
