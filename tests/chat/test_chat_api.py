"""The chat routes end to end: admit, draft, confirm once, discard, credits."""
from __future__ import annotations


def test_a_message_becomes_a_draft_that_confirms_into_one_expense(chat):
    sid = chat.session()
    reply = chat.say(sid, "I paid 42.50 for dinner with Ann and Bo, split equally")
    assert reply.status_code == 202, reply.get_json()
    assert reply.get_json()["status"] == "PENDING"
    session = chat.read(sid)
    assert [(m["role"], m["status"]) for m in session["messages"]] == [
        ("USER", "DONE"), ("ASSISTANT", "DONE")]
    (draft,) = session["drafts"]
    assert draft["expense"]["items"][0]["amount"] == 4250
    assert {s["participantId"] for s in draft["expense"]["items"][0]["splits"]} == {
        chat.me, chat.ann, chat.bo}
    created = chat.confirm(sid, draft)
    assert created.status_code == 201, created.get_json()
    expense = created.get_json()
    assert expense["items"][0]["amount"] == 4250
    again = chat.confirm(sid, draft)
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "DRAFT_CONFIRMED"
    # Even once the expense is gone, the replay creates nothing.
    gone = chat.client.delete(f"/groups/{chat.group_id}/expenses/{expense['expenseId']}",
                              headers=chat.headers)
    assert gone.status_code == 204
    assert chat.confirm(sid, draft).get_json()["error"]["code"] == "DRAFT_CONFIRMED"
    listed = chat.client.get(f"/groups/{chat.group_id}/expenses", headers=chat.headers)
    assert listed.get_json()["items"] == []


def test_a_tip_said_in_chat_confirms_into_an_expense_with_extras(chat):
    sid = chat.session()
    assert chat.say(sid, "I paid 60 for dinner with Ann and Bo plus 10% tip").status_code == 202
    (draft,) = chat.read(sid)["drafts"]
    assert draft["expense"]["extras"] == [{"name": "tip", "amount": 600}]
    created = chat.confirm(sid, draft)
    assert created.status_code == 201, created.get_json()
    expense = created.get_json()
    assert expense["amount"] == 6600 and expense["items"][0]["amount"] == 6000
    assert [s["amount"] for s in expense["extras"][0]["shares"]] == [200, 200, 200]


def test_an_unknown_name_is_asked_about_not_guessed(chat):
    sid = chat.session()
    chat.say(sid, "Cy paid 20 for lunch")
    session = chat.read(sid)
    assert session["drafts"] == []
    assert any("Cy" in q for q in session["messages"][1]["questions"])


def test_a_later_message_revises_the_open_draft(chat):
    sid = chat.session()
    chat.say(sid, "I paid 30 for the taxi with Ann")
    first = chat.read(sid)["drafts"][0]
    chat.say(sid, "actually it was 36")
    (draft,) = chat.read(sid)["drafts"]
    assert draft["draftId"] == first["draftId"] and draft["version"] == 2
    assert draft["expense"]["items"][0]["amount"] == 3600
    stale = chat.confirm(sid, first, version=1)
    assert stale.get_json()["error"]["code"] == "VERSION_CONFLICT"
    assert chat.confirm(sid, draft).status_code == 201


def test_discard_then_confirm_is_refused(chat):
    sid = chat.session()
    chat.say(sid, "I paid 12 for coffee")
    draft = chat.read(sid)["drafts"][0]
    url = f"/chat/sessions/{sid}/drafts/{draft['draftId']}/discard"
    assert chat.client.post(url, headers=chat.headers).status_code == 204
    assert chat.client.post(url, headers=chat.headers).status_code == 204
    assert chat.confirm(sid, draft, version=2).get_json()["error"]["code"] == "DRAFT_DISCARDED"


def test_credits_are_spent_granted_and_run_out(chat, sign_in, client, settings):
    monthly = settings.chat_monthly_credits
    mine = client.get("/users/me/credits", headers=chat.headers).get_json()
    assert mine["balance"] == monthly
    sid = chat.session()
    chat.say(sid, "I paid 5 for snacks")
    mine = client.get("/users/me/credits", headers=chat.headers).get_json()
    assert mine["balance"] == monthly - 1
    assert sorted(e["reason"] for e in mine["items"]) == ["MESSAGE", "MONTHLY_ALLOWANCE"]
    admin, _ = sign_in("root@example.com", admin=True)
    url = f"/admin/users/{chat.user_id}/credits"
    assert client.post(url, json={"delta": 5, "reason": "beta"},
                       headers=chat.headers).status_code == 403
    granted = client.post(url, json={"delta": 5, "reason": "beta"}, headers=admin)
    assert granted.status_code == 201, granted.get_json()
    assert granted.get_json()["balance"] == monthly + 4
    nobody = client.post("/admin/users/0b6e6f3c-2d4b-4a57-9f1e-6a3c2b1d0e99/credits",
                         json={"delta": 5, "reason": "beta"}, headers=admin)
    assert nobody.status_code == 404


def test_no_credit_is_402(chat, client, settings):
    from app.credits import service as credits
    from models.users import ChatBalance

    ChatBalance(*ChatBalance.key(chat.user_id), Free=0, Credits=0, Version=1,
                Period=credits.period_of(__import__("app.core.clock",
                                                    fromlist=["now_iso"]).now_iso())).save()
    sid = chat.session()
    reply = chat.say(sid, "I paid 5 for snacks")
    assert reply.status_code == 402
    assert reply.get_json()["error"]["code"] == "INSUFFICIENT_CREDITS"


def test_someone_else_s_session_is_404(chat, sign_in, client):
    sid = chat.session()
    other, _ = sign_in("eve@example.com")
    assert client.get(f"/chat/sessions/{sid}", headers=other).status_code == 404
    assert client.post(f"/chat/sessions/{sid}/messages", json={"text": "hi"},
                       headers=other).status_code == 404
    assert client.post("/chat/sessions", json={"groupId": chat.group_id},
                       headers=other).status_code == 404


def test_sessions_are_listed_for_their_owner_only(chat, sign_in, client):
    first, second = chat.session(), chat.session(group_id=None)
    listed = client.get("/chat/sessions", headers=chat.headers).get_json()
    assert {s["sessionId"] for s in listed["items"]} == {first, second}
    other, _ = sign_in("eve@example.com")
    assert client.get("/chat/sessions", headers=other).get_json()["items"] == []


def test_the_drafter_sees_only_the_caller_s_groups(chat, sign_in, client):
    from app.chat import context

    other, _ = sign_in("eve@example.com", display_name="Eve")
    client.post("/groups", json={"name": "Eve's secret", "currency": "EUR"}, headers=other)
    seen = context.build(chat.user_id, "hi", "2026-12-01", session_group_id=None,
                         open_draft=None)
    assert [g.group_id for g in seen.groups] == [chat.group_id]
    assert {name for g in seen.groups for _, name in g.participants} == {"Dana", "Ann", "Bo"}


def test_confirm_validates_the_draft_again_against_today_s_roster(chat, client):
    sid = chat.session()
    chat.say(sid, "I paid 30 for the taxi with Ann and Bo")
    draft = chat.read(sid)["drafts"][0]
    removed = client.delete(f"/groups/{chat.group_id}/participants/{chat.bo}",
                            headers=chat.headers)
    assert removed.status_code == 204, removed.get_json()
    refused = chat.confirm(sid, draft)
    assert refused.status_code == 400
    assert chat.read(sid)["drafts"][0]["status"] == "OPEN"
