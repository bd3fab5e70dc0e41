"""E-mail notifications through a real SMTP server (the embedded aiosmtpd one, on a free port):
the reader's channels, language, both parts, escaping, one-click unsubscribe."""
from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

import pytest

from app.local.smtp_server import MAILBOX, SmtpServer
from app.notifications.unsubscribe import unsubscribe_token
from models.users import Profile
from tests.notifications.test_worker import add_expense, duo, history  # noqa: F401 — fixture
from tests.support.settings import installed

ORIGIN = "http://tailspend.test"
ONE_CLICK = {"List-Unsubscribe": "One-Click"}


@pytest.fixture
def smtp(monkeypatch):
    server = SmtpServer("127.0.0.1", 0).start()
    MAILBOX.clear()
    # handlers loaded during the test read the environment: both agree
    monkeypatch.setenv("SMTP_URL", server.url)
    monkeypatch.setenv("TAILSPEND_SERVING_ORIGIN", ORIGIN)
    try:
        with installed(smtp_url=server.url, serving_origin=ORIGIN):
            yield server
    finally:
        server.stop()
        MAILBOX.clear()


def inbox() -> list:
    return MAILBOX.page(100, None)[0]


def email_on(client, headers, *types) -> dict:
    reply = client.patch("/notifications/preferences",
                         json={"types": {name: {"email": True} for name in types}},
                         headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def unsubscribe_path(message: dict) -> str:
    url = re.fullmatch(r"<(.+)>", message["headers"]["List-Unsubscribe"]).group(1)
    assert url.startswith(ORIGIN + "/unsubscribe?token=")
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


def test_email_is_off_by_default_and_push_goes_on(duo, smtp, deliver, recorder):
    deliver()
    add_expense(duo)
    deliver()
    assert inbox() == []
    assert history(duo.client, duo.bob_h)[0]["type"] == "EXPENSE_ADDED"


def test_the_reader_gets_both_parts_in_their_language_with_one_click_unsubscribe(
        duo, smtp, deliver, recorder):
    deliver()
    prefs = email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    assert prefs["types"]["EXPENSE_ADDED"] == {"push": True, "email": True}
    assert prefs["types"]["MENTION"] == {"push": True, "email": False}
    duo.client.patch("/users/me", json={"locale": "de"}, headers=duo.bob_h)
    add_expense(duo, amount=4250, description="Pizza")
    deliver()

    [message] = inbox()  # Bob only: Olive wrote it, and her e-mail channel is off
    assert message["to"] == ["bob@example.com"]
    assert message["subject"] == "Neue Ausgabe in Lisbon"
    assert "42,50 €" in message["text"] and "42,50 €" in message["html"]
    assert "Diese E-Mails abbestellen" in message["text"]
    assert message["headers"]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert '<html lang="de">' in message["html"]
    assert len(recorder.sent) >= 1  # push still went to Bob's device


def test_names_and_descriptions_cannot_inject_html(duo, smtp, deliver, recorder):
    deliver()
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    evil = '<img src=x onerror="alert(1)">&<a href="https://evil.example">'
    renamed = duo.client.patch(f"/groups/{duo.gid}", json={"name": "<b>Lisbon</b>"},
                               headers=duo.olive_h)
    assert renamed.status_code == 200, renamed.get_json()
    add_expense(duo, description=evil)
    deliver()
    [message] = inbox()
    html = message["html"]
    assert "&lt;b&gt;Lisbon&lt;/b&gt;" in html
    assert "<img" not in html and "<b>" not in html and "evil.example\">" not in html
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;&amp;" in html
    assert evil in message["text"]  # the plain part is plain text: shown as written


def test_one_click_unsubscribe_stops_that_type_only(duo, smtp, deliver, recorder):
    deliver()
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED", "COMMENT_ADDED")
    add_expense(duo)
    deliver()
    [message] = inbox()
    path = unsubscribe_path(message)

    # a GET (a mail scanner following the link) changes nothing
    assert duo.client.get(path).status_code == 405
    prefs = duo.client.get("/notifications/preferences", headers=duo.bob_h).get_json()
    assert prefs["types"]["EXPENSE_ADDED"] == {"push": True, "email": True}

    reply = duo.client.post(path, data=ONE_CLICK)  # form-encoded, no sign-in
    assert reply.status_code == 200 and reply.get_json() == {"unsubscribed": True}
    assert duo.client.post(path, data=ONE_CLICK).status_code == 200  # again: still fine
    prefs = duo.client.get("/notifications/preferences", headers=duo.bob_h).get_json()
    assert prefs["types"]["EXPENSE_ADDED"] == {"push": True, "email": False}
    assert prefs["types"]["COMMENT_ADDED"] == {"push": True, "email": True}

    add_expense(duo, description="Second")
    deliver()
    assert len(inbox()) == 1
    assert history(duo.client, duo.bob_h)[0]["body"].startswith("Olive added \u201cSecond")


def test_a_forged_or_edited_token_changes_nothing(duo, smtp):
    token = unsubscribe_token(duo.bob, "EXPENSE_ADDED")
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    for bad in ("nope", token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
                unsubscribe_token(duo.bob, "EXPENSE_ADDED").replace("-", "_")[::-1]):
        reply = duo.client.post(f"/unsubscribe?token={bad}", data=ONE_CLICK)
        assert reply.status_code == 400, reply.get_json()
        assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"
    assert duo.client.post("/unsubscribe", data=ONE_CLICK).status_code == 400
    prefs = duo.client.get("/notifications/preferences", headers=duo.bob_h).get_json()
    assert prefs["types"]["EXPENSE_ADDED"]["email"] is True
    assert unquote(token) == token  # URL-safe as issued


def test_the_old_boolean_form_sets_push_only(duo):
    email_on(duo.client, duo.bob_h, "MENTION")
    reply = duo.client.patch("/notifications/preferences", json={"types": {"MENTION": False}},
                             headers=duo.bob_h)
    assert reply.get_json()["types"]["MENTION"] == {"push": False, "email": True}
    bad = duo.client.patch("/notifications/preferences",
                           json={"types": {"MENTION": {"sms": True}}}, headers=duo.bob_h)
    assert bad.status_code == 400
    assert duo.client.patch("/notifications/preferences", json={"types": {"MENTION": {}}},
                            headers=duo.bob_h).status_code == 400  # nothing named
    digest = duo.client.patch("/notifications/preferences", json={"digest": "WEEKLY"},
                              headers=duo.bob_h).get_json()
    assert digest["digest"] == "WEEKLY"
    assert duo.client.patch("/notifications/preferences", json={"digest": "HOURLY"},
                            headers=duo.bob_h).status_code == 400


def test_nothing_goes_to_an_unverified_address(duo, smtp, deliver, recorder):
    deliver()
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    Profile(*Profile.key(duo.bob)).update(actions=[Profile.EmailVerified.set(False)])
    assert duo.client.get("/notifications/preferences",
                          headers=duo.bob_h).get_json()["emailVerified"] is False
    add_expense(duo)
    deliver()
    assert inbox() == []
    assert history(duo.client, duo.bob_h)[0]["type"] == "EXPENSE_ADDED"


def test_dev_mail_lists_and_shows_what_arrived(duo, smtp, deliver, recorder):
    deliver()
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    add_expense(duo, description="One")
    add_expense(duo, description="Two")
    deliver()
    page = duo.client.get("/dev/mail").get_json()
    assert page["smtp"] == {"host": "127.0.0.1", "port": smtp.port}
    assert [("One" in m["text"], "Two" in m["text"]) for m in page["items"]] in (
        [(False, True), (True, False)], [(True, False), (False, True)])
    assert page["items"][0]["id"] > page["items"][1]["id"]  # newest first
    first = duo.client.get("/dev/mail?limit=1").get_json()
    assert len(first["items"]) == 1 and first["nextCursor"]
    rest = duo.client.get(f"/dev/mail?limit=1&cursor={first['nextCursor']}").get_json()
    assert rest["items"] == page["items"][1:] and rest["nextCursor"] is None
    one = duo.client.get(f"/dev/mail/{page['items'][0]['id']}")
    assert one.status_code == 200 and one.get_json() == page["items"][0]
    assert "multipart/alternative" in one.get_json()["raw"]
    assert duo.client.get("/dev/mail/nope").status_code == 404


def test_an_email_adds_no_dynamodb_call_or_write_unit_to_the_worker(duo, smtp, deliver, recorder):
    """The cost claim (bench/cost_bench.py prices e-mail at SES's price alone): the address and
    the verified flag come from the profile read that checks the recipient is live, and the
    e-mail follows the history row the worker writes anyway."""
    import boto3

    from bench.dynamo_meter import Meter

    meter = Meter(boto3.client("dynamodb", region_name="us-east-1"))
    meter.hook_models()
    deliver()

    def worker_bill(description):
        add_expense(duo, description=description)
        with meter.block() as bill:
            deliver()
        return bill

    push_only = worker_bill("Before")
    email_on(duo.client, duo.bob_h, "EXPENSE_ADDED")
    with_email = worker_bill("After")
    assert len(inbox()) == 1
    assert push_only.total_calls > 0
    assert (with_email.total_calls, with_email.wru) == (push_only.total_calls, push_only.wru)
