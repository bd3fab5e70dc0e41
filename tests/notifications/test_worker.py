"""The stream worker: each event type to the recipient's history, exactly once, one push."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.core import outbox
from app.core.transactions import Transaction
from models.notifications import Event, NotificationItem
from models.people import HandleClaim
from tests.notifications.conftest import pending_records, run_worker

WEB_TOKEN = ('{"endpoint": "https://push.example.com/sub/1", '
             '"keys": {"p256dh": "BPk", "auth": "YXV0aA"}}')


@pytest.fixture
def duo(client, sign_in):
    """Olive owns a EUR group that Bob joined; both have a device; the outbox starts empty."""
    olive_h, olive = sign_in("olive@example.com", display_name="Olive")
    group = client.post("/groups", json={"name": "Lisbon", "currency": "EUR"},
                        headers=olive_h).get_json()
    gid = group["groupId"]
    code = client.get(f"/groups/{gid}/invite", headers=olive_h).get_json()["code"]
    bob_h, bob = sign_in("bob@example.com", display_name="Bob")
    request = client.post(f"/groups/{gid}/join-requests", json={"code": code, "mode": "NEW"},
                          headers=bob_h).get_json()
    approved = client.post(f"/groups/{gid}/join-requests/{request['requestId']}/approve",
                           json={"role": "MEMBER"}, headers=olive_h).get_json()
    for headers, token in ((olive_h, "olive-phone"), (bob_h, "bob-phone")):
        reply = client.post("/notifications/devices", json={"platform": "IOS", "token": token},
                            headers=headers)
        assert reply.status_code == 201, reply.get_json()
    ctx = SimpleNamespace(client=client, gid=gid, olive=olive, olive_h=olive_h, bob=bob,
                          bob_h=bob_h, olive_pid=group["myParticipantId"],
                          bob_pid=approved["participant"]["participantId"],
                          request_id=request["requestId"])
    return ctx


def history(client, headers) -> list:
    reply = client.get("/notifications", headers=headers)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()["items"]


def types_of(client, headers) -> list:
    return [item["type"] for item in history(client, headers)]


def add_expense(ctx, amount=4550, description="Dinner"):
    body = {"description": description, "date": "2026-05-01", "amount": amount,
            "payments": [{"participantId": ctx.olive_pid, "amount": amount}],
            "splitMode": "EQUAL", "splits": [{"participantId": ctx.olive_pid},
                                             {"participantId": ctx.bob_pid}]}
    reply = ctx.client.post(f"/groups/{ctx.gid}/expenses", json=body, headers=ctx.olive_h)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def test_expense_added_reaches_the_other_member_with_who_what_and_amount(duo, deliver, recorder):
    deliver()  # the join events
    recorder.sent.clear()
    add_expense(duo)
    deliver()
    item = history(duo.client, duo.bob_h)[0]
    assert item["type"] == "EXPENSE_ADDED"
    assert item["title"] == "New expense in Lisbon"
    assert item["body"] == "Olive added \u201cDinner\u201d (€45.50)."
    assert item["groupId"] == duo.gid and item["readAt"] is None
    assert "EXPENSE_ADDED" not in types_of(duo.client, duo.olive_h)  # never the actor
    assert [(p, t, m.title) for p, t, m in recorder.sent] == [
        ("IOS", "bob-phone", "New expense in Lisbon")]


def test_amounts_use_the_group_currency_minor_units(client, sign_in, deliver):
    olive_h, _ = sign_in("olive@example.com", display_name="Olive")
    group = client.post("/groups", json={"name": "Tokyo", "currency": "JPY"},
                        headers=olive_h).get_json()
    from app.notifications.render import Context, render
    title, body = render("EXPENSE_ADDED", "u", {"description": "Ramen", "amount": 1200},
                         Context(group_name=group["name"], currency="JPY", user_names={"u": "Olive"}))
    assert body == "Olive added \u201cRamen\u201d (¥1,200)."


def test_a_batch_replayed_twice_writes_no_second_row_and_pushes_once(duo, deliver, recorder):
    deliver()
    add_expense(duo)
    records = pending_records()
    for _ in range(3):  # first delivery, then two replays of the very same batch
        assert run_worker(records) == []
    rows = [item for item in history(duo.client, duo.bob_h) if item["type"] == "EXPENSE_ADDED"]
    assert len(rows) == 1
    assert [m.type for _, _, m in recorder.sent].count("EXPENSE_ADDED") == 1


def test_dispatch_deletes_the_row_from_its_pending_shard(duo, deliver):
    add_expense(duo)
    records = pending_records()
    event_id = records[-1]["dynamodb"]["NewImage"]["EventId"]["S"]
    shard = records[-1]["dynamodb"]["NewImage"]["PK"]["S"]
    assert shard in Event.shards() and Event.key(event_id)[0] == shard
    deliver()
    assert NotificationItem.raw_get(*Event.key(event_id)) is None
    assert pending_records() == []


def test_muted_group_and_disabled_type_are_respected(duo, deliver, recorder):
    deliver()
    assert duo.client.put(f"/notifications/mutes/{duo.gid}", headers=duo.bob_h).status_code == 204
    add_expense(duo, description="Muted")
    deliver()
    assert "EXPENSE_ADDED" not in types_of(duo.client, duo.bob_h)
    assert duo.client.delete(f"/notifications/mutes/{duo.gid}",
                             headers=duo.bob_h).status_code == 204
    reply = duo.client.patch("/notifications/preferences",
                             json={"types": {"EXPENSE_ADDED": False}}, headers=duo.bob_h)
    assert reply.status_code == 200 and reply.get_json()["types"]["EXPENSE_ADDED"] == {
        "push": False, "email": False}
    add_expense(duo, description="Switched off")
    deliver()
    assert "EXPENSE_ADDED" not in types_of(duo.client, duo.bob_h)
    duo.client.patch("/notifications/preferences", json={"types": {"EXPENSE_ADDED": True}},
                     headers=duo.bob_h)
    add_expense(duo, description="On again")
    deliver()
    assert [i["body"] for i in history(duo.client, duo.bob_h)
            if i["type"] == "EXPENSE_ADDED"] == ["Olive added \u201cOn again\u201d (€45.50)."]
    assert all(m.type != "EXPENSE_ADDED" or "On again" in m.body for _, _, m in recorder.sent)


def test_every_event_written_in_this_codebase_lands_in_the_recipient_history(duo, deliver):
    """From the change that writes it (through the API) to the recipient's history."""
    client = duo.client
    deliver()
    assert "JOIN_REQUEST_SUBMITTED" in types_of(client, duo.olive_h)
    assert "JOIN_REQUEST_DECIDED" in types_of(client, duo.bob_h)
    expense = add_expense(duo)
    base = f"/groups/{duo.gid}/expenses/{expense['expenseId']}"
    reply = client.patch(base, json={"version": 1, "description": "Dinner and wine"},
                         headers=duo.olive_h)
    assert reply.status_code == 200, reply.get_json()
    HandleClaim(*HandleClaim.key("bobby"), UserId=duo.bob).save()
    reply = client.post(base + "/comments", json={"body": "thanks @bobby"}, headers=duo.olive_h)
    assert reply.status_code == 201, reply.get_json()
    reply = client.post(f"/groups/{duo.gid}/settlements",
                        json={"payerId": duo.bob_pid, "payeeId": duo.olive_pid, "amount": 2275},
                        headers=duo.olive_h)
    assert reply.status_code == 201, reply.get_json()
    assert client.delete(base, headers=duo.olive_h).status_code == 204
    deliver()
    by_type = {item["type"]: item for item in history(client, duo.bob_h)}
    assert {"EXPENSE_ADDED", "EXPENSE_UPDATED", "COMMENT_ADDED", "MENTION", "SETTLEMENT_ADDED",
            "EXPENSE_DELETED", "JOIN_REQUEST_DECIDED"} <= set(by_type)
    assert by_type["SETTLEMENT_ADDED"]["body"] == "Olive recorded Bob paying Olive €22.75."
    assert by_type["EXPENSE_DELETED"]["body"] == \
        "Olive deleted \u201cDinner and wine\u201d (€45.50)."
    assert by_type["MENTION"]["title"] == "Olive mentioned you"
    assert by_type["JOIN_REQUEST_DECIDED"]["body"] == "Your request to join Lisbon was approved."


@pytest.mark.parametrize("event_type", ["GROUP_INVITATION", "FRIEND_REQUEST", "FRIEND_ACCEPTED",
                                        "RECURRING_CREATED", "RECURRING_REMINDER"])
def test_events_of_other_areas_reach_the_named_or_group_recipients(duo, deliver, event_type):
    """Written by the outbox service as the people and recurring areas call it (those areas'
    own routes land on other branches; their end-to-end tests belong with them)."""
    deliver()
    named = event_type.startswith(("FRIEND", "GROUP_INVITATION"))
    tx = Transaction()
    outbox.add_event(tx, event_type, scope_id=duo.olive, resource_id="r-" + event_type,
                     actor_user_id=duo.olive, group_id=duo.gid,
                     recipients={duo.bob} if named else None,
                     payload={"description": "Rent", "amount": 80000})
    tx.commit()
    deliver()
    assert event_type in types_of(duo.client, duo.bob_h)
    assert event_type not in types_of(duo.client, duo.olive_h)
