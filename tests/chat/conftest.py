"""Fixtures for the chat assistant: a user in a group with Ann and Bo, the worker inline."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.services.chat import drafting
from app.services.core import handoff


@dataclass
class Chat:
    client: object
    headers: dict
    user_id: str
    group_id: str
    me: str
    ann: str
    bo: str

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
    headers, user_id = sign_in(email, display_name="Dana")
    group = client.post("/groups", json={"name": "Trip", "currency": "EUR"},
                        headers=headers).get_json()
    ids = []
    for name in ("Ann", "Bo"):
        reply = client.post(f"/groups/{group['groupId']}/participants",
                            json={"displayName": name}, headers=headers)
        ids.append(reply.get_json()["participantId"])
    return Chat(client, headers, user_id, group["groupId"], group["myParticipantId"], *ids)


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
