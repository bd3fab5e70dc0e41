"""Fixtures for the people tests: signed-in users with handles, and an owner's group."""
from __future__ import annotations

from types import SimpleNamespace

import pytest


@pytest.fixture
def person(client, sign_in):
    """person(email, name, handle=None, discoverable=True) -> (headers, user_id)."""

    def _person(email: str, name: str, handle: str | None = None, discoverable: bool = True):
        headers, user_id = sign_in(email, display_name=name)
        if handle:
            reply = client.put("/people/me/handle", headers=headers,
                               json={"handle": handle, "discoverable": discoverable})
            assert reply.status_code == 200, reply.get_json()
        return SimpleNamespace(headers=headers, user_id=user_id)

    return _person


@pytest.fixture
def owner(client, person):
    """An OWNER and their group (gid, pid)."""
    me = person("olive@example.com", "Olive", "olive")
    group = client.post("/groups", json={"name": "Trip", "currency": "EUR"},
                        headers=me.headers).get_json()
    me.gid, me.pid = group["groupId"], group["myParticipantId"]
    return me
