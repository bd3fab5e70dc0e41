"""`python -m app serve`: the chat worker runs on a thread through its handler (local mode)."""
from __future__ import annotations

from tests.local.serving import call, sign_in


def test_serve_drafts_a_message_on_the_worker_thread(served_app):
    server = served_app
    token, _ = sign_in(server, "dana@example.com")
    status, group = call("POST", server.url + "/groups", {"name": "Trip", "currency": "EUR"},
                         token)
    assert status == 201
    call("POST", f"{server.url}/groups/{group['groupId']}/participants",
         {"displayName": "Ann"}, token)
    status, session = call("POST", server.url + "/chat/sessions",
                           {"groupId": group["groupId"]}, token)
    assert status == 201
    url = f"{server.url}/chat/sessions/{session['sessionId']}"
    status, admitted = call("POST", url + "/messages",
                            {"text": "I paid 42.50 for dinner with Ann"}, token)
    assert status == 202 and admitted["status"] == "PENDING"

    def drafted():
        read = call("GET", url, token=token)[1]
        return read if read["messages"][0]["status"] != "PENDING" else None

    read = server.until(drafted, "the message stayed PENDING")
    assert read["messages"][0]["status"] == "DONE", server.output()
    assert read["drafts"][0]["expense"]["items"][0]["amount"] == 4250
