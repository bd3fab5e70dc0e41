"""Fixtures for the membership tests: a group with its owner, and a one-call join."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from models.groups import Balance, Participant


@pytest.fixture
def owner(client, sign_in):
    """A signed-in OWNER and the group they created (gid, pid, headers, code)."""
    headers, user_id = sign_in("olive@example.com", display_name="Olive")
    group = client.post("/groups", json={"name": "Trip", "currency": "EUR"},
                        headers=headers).get_json()
    gid = group["groupId"]
    code = client.get(f"/groups/{gid}/invite", headers=headers).get_json()["code"]
    return SimpleNamespace(headers=headers, user_id=user_id, group=group, gid=gid,
                           pid=group["myParticipantId"], code=code)


@pytest.fixture
def submit(client, owner):
    """submit(headers, **body) -> the reply of POST /groups/{gid}/join-requests."""

    def _submit(headers, gid=None, **body):
        body.setdefault("code", owner.code)
        body.setdefault("mode", "NEW")
        return client.post(f"/groups/{gid or owner.gid}/join-requests", json=body,
                           headers=headers)

    return _submit


@pytest.fixture
def join(client, sign_in, owner, submit):
    """join(email, role) -> a member (headers, user_id, pid) via submit + approve."""

    def _join(email: str, role: str = "MEMBER", display_name: str | None = None):
        headers, user_id = sign_in(email, display_name=display_name)
        request = submit(headers).get_json()
        reply = client.post(f"/groups/{owner.gid}/join-requests/{request['requestId']}/approve",
                            json={"role": role}, headers=owner.headers)
        assert reply.status_code == 200, reply.get_json()
        return SimpleNamespace(headers=headers, user_id=user_id,
                               pid=reply.get_json()["participant"]["participantId"])

    return _join


@pytest.fixture
def add_guest(client, owner):
    def _add_guest(name: str = "Gus", role: str = "MEMBER") -> str:
        reply = client.post(f"/groups/{owner.gid}/participants",
                            json={"displayName": name, "role": role}, headers=owner.headers)
        assert reply.status_code == 201, reply.get_json()
        return reply.get_json()["participantId"]

    return _add_guest


def participant(gid: str, pid: str) -> Participant:
    return Participant.get(gid, Participant.sort_key(pid), consistent_read=True)


def record_money(gid: str, *, expenses: int = 0, settlements: int = 0) -> None:
    """Bump BALANCE#v1 counters the way an expense or settlement write does."""
    Balance(*Balance.key(gid)).update(actions=[
        Balance.ExpenseCount.add(expenses), Balance.SettlementCount.add(settlements),
        Balance.BalanceRevision.add(1)])
