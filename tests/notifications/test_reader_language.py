"""Every text is written in its reader's language: one event, two recipients, two languages;
the activity feed in the reader's; a guest with no account by their browser's."""
from __future__ import annotations

from tests.notifications.test_worker import add_expense, duo, history  # noqa: F401 — fixture


def _join_third(duo, sign_in, email, name):
    code = duo.client.get(f"/groups/{duo.gid}/invite", headers=duo.olive_h).get_json()["code"]
    headers, _ = sign_in(email, display_name=name)
    request = duo.client.post(f"/groups/{duo.gid}/join-requests",
                              json={"code": code, "mode": "NEW"}, headers=headers).get_json()
    duo.client.post(f"/groups/{duo.gid}/join-requests/{request['requestId']}/approve",
                    json={"role": "MEMBER"}, headers=duo.olive_h)
    return headers


def test_one_event_reaches_each_recipient_in_their_own_language(duo, sign_in, deliver, recorder):
    cleo_h = _join_third(duo, sign_in, "cleo@example.com", "Cleo")
    assert duo.client.patch("/users/me", json={"locale": "de"},
                            headers=duo.bob_h).status_code == 200
    assert duo.client.patch("/users/me", json={"locale": "fr"},
                            headers=cleo_h).status_code == 200
    # the actor writes in Portuguese: the readers' languages decide, not the actor's
    duo.client.patch("/users/me", json={"locale": "pt-BR"}, headers=duo.olive_h)
    deliver()

    add_expense(duo, amount=4250)
    deliver()

    german = history(duo.client, duo.bob_h)[0]
    french = history(duo.client, cleo_h)[0]
    assert (german["title"], german["body"]) == (
        "Neue Ausgabe in Lisbon", "Olive hat \u201eDinner\u201c (42,50 €) hinzugefügt.")
    assert (french["title"], french["body"]) == (
        "Nouvelle dépense dans Lisbon", "Olive a ajouté « Dinner » (42,50 €).")


def test_a_reader_without_a_locale_reads_english(duo, deliver, recorder):
    deliver()
    add_expense(duo, amount=4250)
    deliver()
    assert history(duo.client, duo.bob_h)[0]["body"] == "Olive added \u201cDinner\u201d (€42.50)."


def test_activity_is_written_in_the_readers_language_and_says_which(duo):
    add_expense(duo, amount=4250, description="Pizza")
    duo.client.patch("/users/me", json={"locale": "de"}, headers=duo.bob_h)

    german = duo.client.get(f"/groups/{duo.gid}/activity", headers=duo.bob_h).get_json()
    english = duo.client.get(f"/groups/{duo.gid}/activity", headers=duo.olive_h).get_json()

    assert german["items"][0]["summary"] == "Olive hat Pizza (42,50 €) hinzugefügt"
    assert german["items"][0]["locale"] == "de"
    assert english["items"][0]["summary"] == "Olive added Pizza (€42.50)"
    assert english["items"][0]["locale"] == "en"


def _guest_session(duo) -> dict:
    """A share link bound to a new guest, opened without an account."""
    guest = duo.client.post(f"/groups/{duo.gid}/participants",
                            json={"displayName": "Gus", "role": "MEMBER"},
                            headers=duo.olive_h).get_json()["participantId"]
    link = duo.client.post(f"/groups/{duo.gid}/links",
                           json={"role": "MEMBER", "participantId": guest},
                           headers=duo.olive_h).get_json()
    session = duo.client.post("/links/session", json={"token": link["token"]}).get_json()
    return {"Authorization": f"Bearer {session['accessToken']}",
            "Accept-Language": "nl-BE,nl;q=0.9,en;q=0.5"}


def test_a_share_link_guest_reads_activity_in_the_browsers_language(duo):
    add_expense(duo, amount=4250, description="Pizza")
    headers = _guest_session(duo)

    reply = duo.client.get(f"/groups/{duo.gid}/activity", headers=headers)

    assert reply.status_code == 200, reply.get_json()
    summaries = [item["summary"] for item in reply.get_json()["items"]]
    assert {item["locale"] for item in reply.get_json()["items"]} == {"nl"}
    assert summaries[:3] == ["Gus (via link) heeft de groep geopend", "Olive heeft Gus toegevoegd",
                             "Olive heeft Pizza (€ 42,50) toegevoegd"]
