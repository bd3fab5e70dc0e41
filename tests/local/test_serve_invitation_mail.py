"""Invite by e-mail end to end (issue 48): an OWNER invites an address through
`python -m app serve`; the e-mail arrives at the embedded SMTP server (/dev/mail), in the
inviter's language; the link in it opens the group and joins as the reserved guest; the
e-mail's one-click unsubscribe then stops the next invitation (answered all the same)."""
from __future__ import annotations

import re
import urllib.request
import uuid
from urllib.parse import urlsplit

from tests.local.serving import call
from tests.local.test_serve_mail import _mail_to, _sign_in, _wait


def _invite(server, token, gid, address):
    return call("POST", f"{server.url}/groups/{gid}/invitations",
                {"email": address, "role": "MEMBER"}, token)


def test_the_link_in_the_invitation_email_joins_the_group(served_app):
    server, run = served_app, uuid.uuid4().hex[:8]
    olive, _ = _sign_in(server, f"olive-inv-{run}@example.com", "Olive")
    assert call("PATCH", server.url + "/users/me", {"locale": "fr"}, olive)[0] == 200
    status, group = call("POST", server.url + "/groups", {"name": "Lisbonne", "currency": "EUR"},
                         olive)
    assert status == 201, group
    gid, address = group["groupId"], f"bo-{run}@example.com"

    status, invitation = _invite(server, olive, gid, address)
    assert status == 201, invitation
    [message] = _wait(lambda: _mail_to(server, address), "the invitation e-mail")
    assert message["to"] == [address]
    assert message["subject"] == "Olive vous a invité à rejoindre Lisbonne"
    assert "<html" in message["html"] and message["text"]
    assert message["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    [token] = set(re.findall(re.escape(server.url) + r"/app/join#(tsl_[A-Za-z0-9_-]+)",
                             message["text"]))

    status, opened = call("POST", server.url + "/links/open", {"token": token})
    assert status == 200, opened
    assert opened["name"] == "Lisbonne" and opened["participantId"] == invitation["participantId"]
    status, session = call("POST", server.url + "/links/session", {"token": token})
    assert status == 201, session
    status, seen = call("GET", f"{server.url}/groups/{gid}", token=session["accessToken"])
    assert status == 200 and seen["myParticipantId"] == invitation["participantId"]
    # joined: the guest writes an expense as itself
    body = {"description": "Taxi", "date": "2026-05-01", "amount": 1200,
            "payments": [{"participantId": invitation["participantId"], "amount": 1200}],
            "splitMode": "EQUAL", "splits": [{"participantId": invitation["participantId"]},
                                             {"participantId": group["myParticipantId"]}]}
    status, expense = call("POST", f"{server.url}/groups/{gid}/expenses", body,
                           session["accessToken"])
    assert status == 201, expense

    link = message["headers"]["List-Unsubscribe"].strip("<>")
    parts = urlsplit(link)
    one_click = urllib.request.Request(f"{server.url}{parts.path}?{parts.query}",
                                       data=b"List-Unsubscribe=One-Click", method="POST")
    one_click.add_header("Content-Type", "application/x-www-form-urlencoded")
    with urllib.request.urlopen(one_click, timeout=30) as reply:
        assert reply.status == 200
    status, again = _invite(server, olive, gid, address.upper())
    assert status == 201 and set(again) == set(invitation)
    other = f"cy-{run}@example.com"  # sent after the second: once it is here, that one ran
    assert _invite(server, olive, gid, other)[0] == 201
    _wait(lambda: _mail_to(server, other), "a later invitation")
    assert len(_mail_to(server, address)) == 1
