"""Invitations by e-mail (api.md "E-mail and language"): the e-mail (through the embedded
SMTP server), the share link it carries, the daily limit, the address's unsubscribe, no
existence leak, and who may invite."""
from __future__ import annotations

import re

import pytest

from app.core.access import authorize
from app.local.smtp_server import MAILBOX
from app.people.email_invitations import invite_by_email
from models.groups import ShareLink
from models.notifications import Event, MailSuppression, NotificationItem
from tests.notifications.conftest import (deliver, pending_records, recorder,  # noqa: F401
                                          run_worker)
from tests.groups.test_races import codes, race
from tests.notifications.test_email import ONE_CLICK, inbox, smtp, unsubscribe_path  # noqa: F401

JOIN = re.compile(r"http://tailspend\.test/app/join#(tsl_[A-Za-z0-9_-]+)")


def invite(client, owner, email="bo@example.com", **extra):
    return client.post(f"/groups/{owner.gid}/invitations", headers=owner.headers,
                       json={"email": email, "role": "MEMBER", **extra})


def join_token(message: dict) -> str:
    tokens = set(JOIN.findall(message["text"]))
    assert len(tokens) == 1, message["text"]
    [token] = tokens
    assert f'href="http://tailspend.test/app/join#{token}"' in message["html"]
    return token


def test_the_invitee_gets_a_link_bound_to_a_new_guest_and_joins_with_it(
        client, owner, smtp, deliver):
    reply = invite(client, owner, "Bo.Jones@Example.com")
    assert reply.status_code == 201, reply.get_json()
    body = reply.get_json()
    assert body["email"] == "bo.jones@example.com" and body["role"] == "MEMBER"
    assert set(body) == {"groupId", "groupName", "email", "linkId", "role", "participantId",
                         "invitedBy", "createdAt", "expiresAt"}  # never a token
    roster = client.get(f"/groups/{owner.gid}/participants", headers=owner.headers).get_json()
    guest = next(p for p in roster["items"] if p["participantId"] == body["participantId"])
    assert guest["type"] == "GUEST" and guest["displayName"] == "bo.jones"
    assert inbox() == []  # off the request path: the worker sends it
    deliver()

    [message] = inbox()
    assert message["to"] == ["bo.jones@example.com"]
    assert message["subject"] == "Olive invited you to Trip"
    assert message["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "<html" in message["html"] and "Send me no more invitations" in message["text"]
    token = join_token(message)

    opened = client.post("/links/open", json={"token": token})
    assert opened.status_code == 200, opened.get_json()
    assert opened.get_json()["participantId"] == body["participantId"]
    assert opened.get_json()["guests"] == [{"participantId": body["participantId"],
                                            "displayName": "bo.jones"}]
    session = client.post("/links/session", json={"token": token})
    assert session.status_code == 201, session.get_json()
    guest_h = {"Authorization": f"Bearer {session.get_json()['accessToken']}"}
    group = client.get(f"/groups/{owner.gid}", headers=guest_h).get_json()
    assert group["myParticipantId"] == body["participantId"] and group["myRole"] == "MEMBER"


def test_the_email_is_in_the_inviters_language_and_names_cannot_inject(
        client, owner, smtp, deliver):
    client.patch("/users/me", json={"locale": "de", "displayName": "<b>Olive</b>"},
                 headers=owner.headers)
    client.patch(f"/groups/{owner.gid}", json={"name": '<img src=x onerror="alert(1)">'},
                 headers=owner.headers)
    assert invite(client, owner).status_code == 201
    deliver()
    [message] = inbox()
    assert message["subject"].startswith("<b>Olive</b> hat dich zu")
    assert '<html lang="de">' in message["html"]
    assert "<b>" not in message["html"] and "<img" not in message["html"]
    assert "&lt;b&gt;Olive&lt;/b&gt;" in message["html"]
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in message["html"]
    assert '<img src=x onerror="alert(1)">' in message["text"]  # plain text, as written
    assert "Keine Einladungen mehr" in message["text"]


def test_a_named_guest_is_the_one_the_link_acts_for(client, owner, smtp, deliver):
    guest = client.post(f"/groups/{owner.gid}/participants", headers=owner.headers,
                        json={"displayName": "Bo"}).get_json()
    reply = invite(client, owner, participantId=guest["participantId"], role="VIEWER")
    assert reply.status_code == 201, reply.get_json()
    assert reply.get_json()["participantId"] == guest["participantId"]
    deliver()
    token = join_token(inbox()[0])
    opened = client.post("/links/open", json={"token": token}).get_json()
    assert opened["role"] == "VIEWER" and opened["participantId"] == guest["participantId"]
    # a USER participant is nobody's guest
    taken = invite(client, owner, participantId=owner.pid)
    assert taken.status_code == 409 and taken.get_json()["error"]["code"] == "TARGET_NOT_GUEST"


def test_revoking_the_link_withdraws_the_invitation_at_once(client, owner, smtp, deliver):
    body = invite(client, owner).get_json()
    links = client.get(f"/groups/{owner.gid}/links", headers=owner.headers).get_json()["items"]
    assert [(link["linkId"], link.get("byEmail")) for link in links] == [(body["linkId"], True)]
    deliver()
    token = join_token(inbox()[0])
    session = client.post("/links/session", json={"token": token}).get_json()
    guest_h = {"Authorization": f"Bearer {session['accessToken']}"}
    assert client.get(f"/groups/{owner.gid}", headers=guest_h).status_code == 200

    gone = client.delete(f"/groups/{owner.gid}/links/{body['linkId']}", headers=owner.headers)
    assert gone.status_code == 204
    assert client.post("/links/open", json={"token": token}).status_code == 404
    assert client.get(f"/groups/{owner.gid}", headers=guest_h).status_code in (401, 403, 404)


def test_revoked_before_the_worker_ran_sends_nothing(client, owner, smtp, deliver):
    body = invite(client, owner).get_json()
    client.delete(f"/groups/{owner.gid}/links/{body['linkId']}", headers=owner.headers)
    deliver()
    assert inbox() == []
    assert pending_invitations() == []  # taken out of the outbox all the same


def test_invitation_links_do_not_count_toward_the_link_limit(client, owner):
    for n in range(3):
        assert invite(client, owner, f"p{n}@example.com").status_code == 201
    for _ in range(20):
        made = client.post(f"/groups/{owner.gid}/links", headers=owner.headers,
                           json={"role": "VIEWER"})
        assert made.status_code == 201, made.get_json()
    over = client.post(f"/groups/{owner.gid}/links", headers=owner.headers,
                       json={"role": "VIEWER"})
    assert over.status_code == 409 and over.get_json()["error"]["code"] == "LINK_LIMIT"
    # revoking an invitation's link gives no slot back (it held none) ...
    mine = [link for link in client.get(f"/groups/{owner.gid}/links",
                                        headers=owner.headers).get_json()["items"]
            if link.get("byEmail")]
    assert len(mine) == 3
    client.delete(f"/groups/{owner.gid}/links/{mine[0]['linkId']}", headers=owner.headers)
    again = client.post(f"/groups/{owner.gid}/links", headers=owner.headers,
                        json={"role": "VIEWER"})
    assert again.status_code == 409
    # ... and one more invitation still goes through
    assert invite(client, owner, "p9@example.com").status_code == 201


def test_twenty_invitations_a_day_per_group_then_429(client, owner):
    for n in range(20):
        assert invite(client, owner, f"p{n}@example.com").status_code == 201
    over = invite(client, owner, "p20@example.com")
    assert over.status_code == 429
    error = over.get_json()["error"]
    assert error["code"] == "RATE_LIMITED" and error["details"]["limit"] == 20
    retry = int(over.headers["Retry-After"])
    assert 0 < retry <= 24 * 3600 and error["details"]["retryAfter"] == retry
    roster = client.get(f"/groups/{owner.gid}/participants", headers=owner.headers).get_json()
    assert len(roster["items"]) == 21  # the refused one added no guest


@pytest.mark.race
def test_racing_invitations_never_pass_the_daily_limit(client, owner):
    for n in range(17):
        assert invite(client, owner, f"p{n}@example.com").status_code == 201
    access = authorize(owner.user_id, owner.gid, "OWNER", writing=True)
    outcomes = race(*[lambda n=n: invite_by_email(access, f"r{n}@example.com", role="MEMBER")
                      for n in range(6)])
    assert sorted(codes(outcomes)) == ["RATE_LIMITED"] * 3
    assert len([o for o in outcomes if isinstance(o, dict)]) == 3
    assert len(pending_invitations()) == 20


def test_after_the_one_click_unsubscribe_a_second_invitation_sends_nothing(
        client, owner, smtp, deliver, person):
    first = invite(client, owner)
    deliver()
    [message] = inbox()
    path = unsubscribe_path(message)
    assert client.get(path).status_code == 405  # a scanner's GET changes nothing
    reply = client.post(path, data=ONE_CLICK)
    assert reply.status_code == 200 and reply.get_json() == {"unsubscribed": True}
    rows = [row for row in NotificationItem.scan() if isinstance(row, MailSuppression)]
    assert len(rows) == 1 and "bo@example.com" not in rows[0].PK  # the hash, not the address

    other = person("nina@example.com", "Nina")
    group = client.post("/groups", json={"name": "Other", "currency": "EUR"},
                        headers=other.headers).get_json()
    second = client.post(f"/groups/{group['groupId']}/invitations", headers=other.headers,
                         json={"email": "BO@example.com", "role": "MEMBER"})
    assert second.status_code == 201  # answered the same ...
    assert set(second.get_json()) == set(first.get_json())
    deliver()
    assert len(inbox()) == 1  # ... and nothing sent
    assert invite(client, owner, "someone.else@example.com").status_code == 201
    deliver()
    assert len(inbox()) == 2  # other addresses still get theirs


def test_an_address_with_an_account_is_treated_the_same(client, owner, person, smtp, deliver):
    person("bo@example.com", "Bo")  # has an account
    with_account = invite(client, owner, "bo@example.com")
    without = invite(client, owner, "nobody@example.com")
    assert with_account.status_code == without.status_code == 201
    assert set(with_account.get_json()) == set(without.get_json())
    deliver()
    by_to = {message["to"][0]: message for message in inbox()}
    assert set(by_to) == {"bo@example.com", "nobody@example.com"}
    assert by_to["bo@example.com"]["subject"] == by_to["nobody@example.com"]["subject"]
    shape = [JOIN.sub("LINK", m["text"]).split("token=")[0] for m in by_to.values()]
    assert shape[0] == shape[1]  # the same e-mail, link aside


def test_only_an_owner_invites_and_a_token_or_a_bad_body_is_refused(client, owner, person):
    member = person("mo@example.com", "Mo")
    code = client.get(f"/groups/{owner.gid}/invite", headers=owner.headers).get_json()["code"]
    request = client.post(f"/groups/{owner.gid}/join-requests", headers=member.headers,
                          json={"code": code, "mode": "NEW"}).get_json()
    client.post(f"/groups/{owner.gid}/join-requests/{request['requestId']}/approve",
                headers=owner.headers, json={"role": "MEMBER"})
    refused = client.post(f"/groups/{owner.gid}/invitations", headers=member.headers,
                          json={"email": "bo@example.com", "role": "MEMBER"})
    assert refused.status_code == 403
    stranger = person("st@example.com", "St")
    assert client.post(f"/groups/{owner.gid}/invitations", headers=stranger.headers,
                       json={"email": "bo@example.com", "role": "MEMBER"}).status_code == 404

    pat = client.post("/developer/tokens", headers=owner.headers,
                      json={"name": "script", "scopes": ["groups:read", "expenses:write",
                                                         "settlements:write"]}).get_json()
    by_pat = client.post(f"/groups/{owner.gid}/invitations",
                         headers={"Authorization": f"Bearer {pat['token']}"},
                         json={"email": "bo@example.com", "role": "MEMBER"})
    assert by_pat.status_code == 403, by_pat.get_json()

    for bad in ({"email": "not-an-address", "role": "MEMBER"},
                {"email": "bo@example.com", "role": "OWNER"},
                {"email": "bo@example.com", "userId": owner.user_id, "role": "MEMBER"},
                {"role": "MEMBER"},
                {"userId": owner.user_id, "role": "MEMBER", "displayName": "X"}):
        reply = client.post(f"/groups/{owner.gid}/invitations", headers=owner.headers,
                            json=bad)
        assert reply.status_code == 400, (bad, reply.get_json())
        assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"


def pending_invitations() -> list:
    return [event for shard in Event.shards() for event in Event.pending(shard, "9999")
            if event.Type == "EMAIL_INVITATION"]


def test_an_archived_group_is_refused(client, owner):
    assert client.post(f"/groups/{owner.gid}/archive", headers=owner.headers).status_code == 200
    reply = invite(client, owner)
    assert reply.status_code == 409 and reply.get_json()["error"]["code"] == "GROUP_ARCHIVED"
    assert pending_invitations() == []
    assert [row for row in ShareLink.of_group(owner.gid)] == []


@pytest.mark.parametrize("edited", ["nope", "x" * 40])
def test_a_forged_invitation_unsubscribe_suppresses_nothing(client, edited):
    reply = client.post(f"/unsubscribe?token={edited}", data=ONE_CLICK)
    assert reply.status_code == 400
    assert not [row for row in NotificationItem.scan() if isinstance(row, MailSuppression)]


def test_the_event_holds_neither_the_address_nor_the_token_in_clear(client, owner):
    invite(client, owner, "secret.person@example.com")
    [event] = pending_invitations()
    stored = str(NotificationItem.raw_get(event.PK, event.SK))
    assert "secret.person" not in stored and "tsl_" not in stored


def test_mailbox_is_clean_between_tests():
    assert MAILBOX.page(100, None)[0] == []


def test_what_an_invitation_costs_in_dynamodb_calls(client, owner, smtp, recorder):
    """Measured: the request's calls and write units (one TransactWrite holds every row), and
    the worker's (the suppression and link reads, the event's delete)."""
    import boto3

    from bench.dynamo_meter import Meter

    meter = Meter(boto3.client("dynamodb", region_name="us-east-1"))
    meter.hook_models()
    with meter.block() as request:
        assert invite(client, owner).status_code == 201
    records = pending_records()  # the stream's doing, not the worker's
    with meter.block() as worker:
        assert run_worker(records) == []
    assert len(inbox()) == 1
    print(f"request: {request.calls_text()} WRU {request.wru}; "
          f"worker: {worker.calls_text()} WRU {worker.wru}")
    assert request.calls.get("TransactWriteItems") == 1
    # already dispatched?, the address's suppression, the link still standing; the delete
    assert dict(worker.calls) == {"GetItem": 3, "DeleteItem": 1}
