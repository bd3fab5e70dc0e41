"""Fixtures for the money tests: a signed-in owner with a group and two guests."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List

import pytest


@dataclass
class GroupCtx:
    """A group seen through the API by its owner."""

    client: object
    headers: dict
    user_id: str
    group_id: str
    me: str
    guests: List[str]

    @property
    def base(self) -> str:
        return f"/groups/{self.group_id}"

    @property
    def everyone(self) -> List[str]:
        return [self.me] + self.guests

    def post(self, path: str, body: dict, headers: dict | None = None):
        return self.client.post(self.base + path, json=body, headers=headers or self.headers)

    def get(self, path: str, **kwargs):
        return self.client.get(self.base + path, headers=self.headers, **kwargs)

    def patch(self, path: str, body: dict):
        return self.client.patch(self.base + path, json=body, headers=self.headers)

    def delete(self, path: str):
        return self.client.delete(self.base + path, headers=self.headers)

    def add_expense(self, amount: int = 900, *, payer: str | None = None,
                    among: List[str] | None = None, date: str = "2026-11-28",
                    description: str = "Dinner") -> dict:
        from tests.ledger.helpers import equal_body
        reply = self.post("/expenses", equal_body(payer or self.me, amount,
                                                  among or self.everyone, date=date,
                                                  description=description))
        assert reply.status_code == 201, reply.get_json()
        return reply.get_json()


def make_group_ctx(client, sign_in, email: str, *, guests: int = 2,
                   currency: str = "EUR") -> GroupCtx:
    headers, user_id = sign_in(email)
    group = client.post("/groups", json={"name": "Trip", "currency": currency},
                        headers=headers).get_json()
    ids = []
    for index in range(guests):
        reply = client.post(f"/groups/{group['groupId']}/participants",
                            json={"displayName": f"Guest {index}"}, headers=headers)
        assert reply.status_code == 201, reply.get_json()
        ids.append(reply.get_json()["participantId"])
    return GroupCtx(client, headers, user_id, group["groupId"], group["myParticipantId"], ids)


@pytest.fixture
def group(client, sign_in) -> GroupCtx:
    return make_group_ctx(client, sign_in, "owner@example.com")


@pytest.fixture
def other_group(client, sign_in) -> GroupCtx:
    return make_group_ctx(client, sign_in, "stranger@example.com")
