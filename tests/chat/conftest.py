"""Fixtures for the chat assistant: a user in a group with Ann and Bo, the worker inline."""
from __future__ import annotations

import pytest

from app.chat import drafting
from app.core import handoff
from tests.support.trio import Trio


class Chat(Trio):
    """The trio's user talking to the assistant about its group."""

    def session(self, group_id: str | None = "group") -> str:
        body = {"groupId": self.group_id if group_id == "group" else group_id}
        reply = self.client.post("/chat/sessions", json=body, headers=self.headers)
        assert reply.status_code == 201, reply.get_json()
        return reply.get_json()["sessionId"]

    def say(self, session_id: str, text: str):
        return self.client.post(f"/chat/sessions/{session_id}/messages", json={"text": text},
                                headers=self.headers)

    def read(self, session_id: str) -> dict:
        reply = self.client.get(f"/chat/sessions/{session_id}", headers=self.headers)
        assert reply.status_code == 200, reply.get_json()
        return reply.get_json()

    def confirm(self, session_id: str, draft: dict, version: int | None = None):
        return self.client.post(
            f"/chat/sessions/{session_id}/drafts/{draft['draftId']}/confirm",
            json={"version": version or draft["version"]}, headers=self.headers)


def make_chat(client, sign_in, email="dana@example.com") -> Chat:
    return Chat.signed_in(client, sign_in, email, "Dana")


@pytest.fixture
def inline_worker(settings):
    """The worker runs inside the request that admitted the message (as the local thread
    would, minus the thread)."""
    handoff.use_local_runner("chat", lambda item: drafting.process(item, settings))
    yield
    handoff.use_local_runner("chat", None)


@pytest.fixture
def chat(client, sign_in, inline_worker) -> Chat:
    return make_chat(client, sign_in)
