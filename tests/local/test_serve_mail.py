"""Done-when of e-mail (issue 48): a real expense through `python -m app serve`, read back from
its embedded SMTP server at /dev/mail; then one-click unsubscribe stops that type."""
from __future__ import annotations

import time
import urllib.request
import uuid
from urllib.parse import urlsplit

from tests.local.serving import call


def _sign_in(server, email: str, name: str) -> tuple:
    status, body = call("POST", server.url + "/dev/tokens", {"email": email, "displayName": name})
    assert status == 201, body
    return body["accessToken"], body["userId"]


def _mail_to(server, address: str) -> list:
    status, page = call("GET", server.url + "/dev/mail?limit=100")
    assert status == 200, page
    assert page["smtp"]["port"] > 0
    return [item for item in page["items"] if address in item["to"]]


def _wait(ready, what: str, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = ready()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {seconds} s")


def _expense(server, token, gid, payer, other, description):
    body = {"description": description, "date": "2026-05-01", "amount": 8500,
            "payments": [{"participantId": payer, "amount": 8500}], "splitMode": "EQUAL",
            "splits": [{"participantId": payer}, {"participantId": other}]}
    status, reply = call("POST", f"{server.url}/groups/{gid}/expenses", body, token)
    assert status == 201, reply


def test_an_expense_reaches_the_readers_inbox_and_one_click_stops_it(served_app):
    server, run = served_app, uuid.uuid4().hex[:8]
    olive, _ = _sign_in(server, f"olive-{run}@example.com", "Olive")
    bob_address = f"bob-{run}@example.com"
    bob, _ = _sign_in(server, bob_address, "Bob")
    status, group = call("POST", server.url + "/groups", {"name": "Lisbon", "currency": "EUR"},
                         olive)
    assert status == 201, group
    gid = group["groupId"]
    code = call("GET", f"{server.url}/groups/{gid}/invite", token=olive)[1]["code"]
    request = call("POST", f"{server.url}/groups/{gid}/join-requests",
                   {"code": code, "mode": "NEW"}, bob)[1]
    status, approved = call("POST", f"{server.url}/groups/{gid}/join-requests/"
                            f"{request['requestId']}/approve", {"role": "MEMBER"}, olive)
    assert status == 200, approved
    bob_pid = approved["participant"]["participantId"]
    assert call("PATCH", server.url + "/users/me", {"locale": "de"}, bob)[0] == 200
    status, prefs = call("PATCH", server.url + "/notifications/preferences",
                         {"types": {"EXPENSE_ADDED": {"email": True}}}, bob)
    assert status == 200 and prefs["emailVerified"] is True, prefs

    _expense(server, olive, gid, group["myParticipantId"], bob_pid, "Dinner")
    [message] = _wait(lambda: _mail_to(server, bob_address), "Bob's e-mail")
    assert message["to"] == [bob_address]
    assert _mail_to(server, f"olive-{run}@example.com") == []  # the writer gets none
    assert message["subject"] == "Neue Ausgabe in Lisbon"
    assert "Olive hat \u201eDinner\u201c (85,00 €) hinzugefügt." in message["text"]
    assert "85,00 €" in message["html"] and "<html" in message["html"]
    assert message["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = message["headers"]["List-Unsubscribe"].strip("<>")
    assert link.startswith(server.url + "/unsubscribe?token=")

    parts = urlsplit(link)
    one_click = urllib.request.Request(f"{server.url}{parts.path}?{parts.query}",
                                       data=b"List-Unsubscribe=One-Click", method="POST")
    one_click.add_header("Content-Type", "application/x-www-form-urlencoded")
    with urllib.request.urlopen(one_click, timeout=30) as reply:
        assert reply.status == 200
    prefs = call("GET", server.url + "/notifications/preferences", token=bob)[1]
    assert prefs["types"]["EXPENSE_ADDED"] == {"push": True, "email": False}

    _expense(server, olive, gid, group["myParticipantId"], bob_pid, "Lunch")
    _wait(lambda: len(call("GET", server.url + "/notifications", token=bob)[1]["items"]) >= 2,
          "the second expense's notification")
    assert len(_mail_to(server, bob_address)) == 1  # recorded and pushed, not e-mailed


def test_a_daily_digest_from_the_served_data_arrives_at_dev_mail_in_the_readers_language(
        served_app):
    """The digests' schedule (`python -m app digests`, the Maintenance handler on its canned
    event) against the running server's data: the e-mail goes through that server's SMTP."""
    import json
    import subprocess
    import sys
    from datetime import datetime, timedelta, timezone

    from tests.local.serving import ROOT, child_env

    server, run = served_app, uuid.uuid4().hex[:8]
    olive, _ = _sign_in(server, f"olive-digest-{run}@example.com", "Olive")
    bob_address = f"bob-digest-{run}@example.com"
    bob, _ = _sign_in(server, bob_address, "Bob")
    status, group = call("POST", server.url + "/groups", {"name": "Porto", "currency": "EUR"},
                         olive)
    assert status == 201, group
    gid = group["groupId"]
    code = call("GET", f"{server.url}/groups/{gid}/invite", token=olive)[1]["code"]
    request = call("POST", f"{server.url}/groups/{gid}/join-requests",
                   {"code": code, "mode": "NEW"}, bob)[1]
    approved = call("POST", f"{server.url}/groups/{gid}/join-requests/"
                    f"{request['requestId']}/approve", {"role": "MEMBER"}, olive)[1]
    assert call("PATCH", server.url + "/users/me", {"locale": "de"}, bob)[0] == 200
    status, prefs = call("PATCH", server.url + "/notifications/preferences",
                         {"digest": "DAILY"}, bob)
    assert status == 200 and prefs["digest"] == "DAILY", prefs
    _expense(server, olive, gid, group["myParticipantId"],
             approved["participant"]["participantId"], "Abendessen")
    _wait(lambda: any(item["type"] == "EXPENSE_ADDED" for item in
                      call("GET", server.url + "/notifications", token=bob)[1]["items"]),
          "Bob's notification of the expense")

    tomorrow = (datetime.now(timezone.utc) + timedelta(days=1)).strftime("%Y-%m-%dT00:15:00Z")
    done = subprocess.run([sys.executable, "-m", "app", "digests", "--now", tomorrow,
                           "--data-dir", str(server.data_dir)], cwd=ROOT, env=child_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1])["digestsSent"] >= 1
    [digest] = _wait(lambda: _mail_to(server, bob_address), "Bob's digest")
    assert digest["subject"].startswith("Dein TailSpend-Tag: ")
    assert "Porto: Du schuldest 42,50 €" in digest["text"]
    assert "Du schuldest Olive 42,50 €" in digest["text"]
    assert "„Abendessen“ (85,00 €)" in digest["text"]
    assert "42,50 €" in digest["html"]
    assert digest["headers"]["List-Unsubscribe"].strip("<>").startswith(
        server.url + "/unsubscribe?token=")
    assert _mail_to(server, f"olive-digest-{run}@example.com") == []
