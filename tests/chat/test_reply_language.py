"""The assistant's replies are in the language of whoever wrote the message."""
from __future__ import annotations


def test_a_german_readers_draft_summary_is_in_german_with_german_money(chat):
    assert chat.client.patch("/users/me", json={"locale": "de"},
                             headers=chat.headers).status_code == 200
    sid = chat.session()
    chat.say(sid, "I paid 42.50 for dinner with Ann and Bo, split equally")

    reply = chat.read(sid)["messages"][1]["text"]

    assert reply.startswith("Dinner: 42,50 €, bezahlt von dir, aufgeteilt zwischen dir, Ann und Bo")
    assert reply.endswith("in der Gruppe \u201eTrip\u201c. Bestätige, um es zu speichern.")


def test_the_reply_follows_the_locale_the_message_was_written_in(chat):
    sid = chat.session()
    chat.client.patch("/users/me", json={"locale": "es"}, headers=chat.headers)
    chat.say(sid, "I paid 10 for taxi with Ann")
    chat.client.patch("/users/me", json={"locale": "en"}, headers=chat.headers)
    chat.say(sid, "I paid 12 for taxi with Ann")

    first, second = chat.read(sid)["messages"][1]["text"], chat.read(sid)["messages"][3]["text"]

    assert "pagado por ti" in first and "10,00\u00a0€" not in first and "10,00 €" in first
    assert "paid by you" in second and "€12.00" in second
