"""A share-link session's writes reach the group's accounts under its guest's name
(docs/share-links.md), through the Flask test client, moto and the real stream handler."""
from __future__ import annotations


def test_a_guests_write_by_link_is_named_in_the_notification(client, sign_in, deliver):
    olive_h, _ = sign_in("olive@example.com", display_name="Olive")
    gid = client.post("/groups", json={"name": "Lisbon", "currency": "EUR"},
                      headers=olive_h).get_json()["groupId"]
    bo = client.post(f"/groups/{gid}/participants", json={"displayName": "Bo"},
                     headers=olive_h).get_json()["participantId"]
    link = client.post(f"/groups/{gid}/links", json={"role": "MEMBER"},
                       headers=olive_h).get_json()
    session = client.post("/links/session", json={"token": link["token"], "participantId": bo})
    assert session.status_code == 201, session.get_json()
    guest = {"Authorization": f"Bearer {session.get_json()['accessToken']}"}
    reply = client.post(f"/groups/{gid}/expenses", headers=guest, json={
        "description": "Taxi", "amount": 1200, "date": "2026-05-01",
        "payments": [{"participantId": bo, "amount": 1200}],
        "splits": [{"participantId": bo}], "splitMode": "EQUAL"})
    assert reply.status_code == 201, reply.get_json()
    deliver()
    items = client.get("/notifications", headers=olive_h).get_json()["items"]
    added = [item for item in items if item["type"] == "EXPENSE_ADDED"]
    assert [item["body"] for item in added] == ["Bo (by link) added \u201cTaxi\u201d (€12.00)."]
