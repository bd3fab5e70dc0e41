"""Stateful proof: no refused principal ever writes. A hypothesis RuleBasedStateMachine mixes
share links (MEMBER and VIEWER), sessions, revocations, claims and guest removals through the
Flask app on a fresh moto DynamoDB per example. A model says, before each session write,
whether the session may still write (its link live and MEMBER, its guest still a guest); the
write must then succeed, or be refused (401/403) and leave no row behind, and the group's
expenses must always be exactly the ones the model admitted."""
from __future__ import annotations

import functools

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, invariant, precondition, rule
from moto import mock_aws

import models
from app.config import Settings
from app.factory import create_app
from models.groups import EXPENSE_HEAD_SUFFIX, Expense
from tests.support.tables import create_all_tables

STAGE = "linkstateful"


@functools.lru_cache(maxsize=1)
def _app(data_dir: str):
    return create_app(Settings(stage=STAGE, region="us-east-1", local_mode=True,
                               data_dir=data_dir, cursor_secret=b"link-stateful-secret"))


class LinkSessions(RuleBasedStateMachine):
    links = Bundle("links")
    sessions = Bundle("sessions")

    def __init__(self):
        super().__init__()
        import tempfile
        self._mock = mock_aws()
        self._mock.start()
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        app = _app(tempfile.gettempdir() + "/tailspend-link-stateful")
        app.extensions["tailspend"].authenticator.identities.clear()
        self.client = app.test_client()
        self.owner = self._sign_in("owner@example.com")
        self.gid = self.client.post("/groups", json={"name": "S", "currency": "EUR"},
                                    headers=self.owner).get_json()["groupId"]
        self.live = {}  # link id -> role, while not revoked
        self.guests = {}  # guest id -> "GUEST" | "USER" | "GONE"
        self.referenced = set()  # guests named by an admitted expense (removal refused)
        self.admitted = 0
        self.users = 0

    def teardown(self):
        self._mock.stop()

    def _sign_in(self, email):
        token = self.client.post("/dev/tokens", json={"email": email}).get_json()["accessToken"]
        return {"Authorization": f"Bearer {token}"}

    @rule(target=links, role=st.sampled_from(["MEMBER", "VIEWER"]))
    def make_link(self, role):
        reply = self.client.post(f"/groups/{self.gid}/links", json={"role": role},
                                 headers=self.owner)
        assert reply.status_code == 201, reply.get_json()
        link = reply.get_json()
        self.live[link["linkId"]] = role
        return (link["linkId"], link["token"])

    @rule(link=links)
    def revoke(self, link):
        reply = self.client.delete(f"/groups/{self.gid}/links/{link[0]}", headers=self.owner)
        assert reply.status_code == (204 if link[0] in self.live else 404)
        self.live.pop(link[0], None)

    @rule(target=sessions, link=links, name=st.sampled_from(["Ana", "Bo", "Cy"]))
    def open_session(self, link, name):
        """A session as a new guest (MEMBER links), else as a guest the owner adds."""
        if self.live.get(link[0]) == "MEMBER":
            reply = self.client.post("/links/session", json={"token": link[1],
                                                               "displayName": name})
        else:
            guest = self.client.post(f"/groups/{self.gid}/participants",
                                     json={"displayName": name}, headers=self.owner)
            self.guests[guest.get_json()["participantId"]] = "GUEST"
            reply = self.client.post("/links/session", json={
                "token": link[1], "participantId": guest.get_json()["participantId"]})
        if link[0] not in self.live:
            assert reply.status_code == 404
            return (link[0], None, None)
        assert reply.status_code == 201, reply.get_json()
        session = reply.get_json()
        self.guests[session["participantId"]] = "GUEST"
        return (link[0], session["accessToken"], session["participantId"])

    @rule(session=sessions)
    def write(self, session):
        link_id, token, guest = session
        if token is None:
            return
        allowed = (self.live.get(link_id) == "MEMBER" and self.guests.get(guest) == "GUEST")
        before = self._expenses()
        reply = self.client.post(f"/groups/{self.gid}/expenses", headers={
            "Authorization": f"Bearer {token}"}, json={
            "description": "S", "amount": 100, "splitMode": "EQUAL",
            "payments": [{"participantId": guest, "amount": 100}],
            "splits": [{"participantId": guest}]})
        if allowed:
            assert reply.status_code == 201, reply.get_json()
            self.admitted += 1
            self.referenced.add(guest)
        else:
            assert reply.status_code in (401, 403), reply.get_json()
            assert self._expenses() == before

    @rule(session=sessions)
    def claim(self, session):
        link_id, token, guest = session
        if token is None:
            return
        self.users += 1
        user = self._sign_in(f"user{self.users}@example.com")
        reply = self.client.post(f"/groups/{self.gid}/links/claim",
                                 json={"sessionToken": token}, headers=user)
        if link_id not in self.live:
            assert reply.status_code == 404
        elif self.guests.get(guest) != "GUEST":
            assert reply.status_code in (404, 409), reply.get_json()
        else:
            assert reply.status_code == 200, reply.get_json()
            self.guests[guest] = "USER"

    @precondition(lambda self: any(s == "GUEST" for s in self.guests.values()))
    @rule(data=st.data())
    def remove_guest(self, data):
        guest = data.draw(st.sampled_from(sorted(g for g, s in self.guests.items()
                                                 if s == "GUEST")))
        reply = self.client.delete(f"/groups/{self.gid}/participants/{guest}",
                                   headers=self.owner)
        if guest in self.referenced:
            assert reply.status_code == 409
        else:
            assert reply.status_code == 204, reply.get_json()
            self.guests[guest] = "GONE"

    def _expenses(self) -> int:
        return sum(1 for row in Expense.query(self.gid, consistent_read=True)
                   if row.SK.endswith(EXPENSE_HEAD_SUFFIX))

    @invariant()
    def only_admitted_writes_exist(self):
        assert self._expenses() == self.admitted


LinkSessions.TestCase.settings = settings(
    max_examples=6, stateful_step_count=12, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestNoRefusedPrincipalWrites = LinkSessions.TestCase
