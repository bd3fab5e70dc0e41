"""The recurring routes through the Flask test client (moto)."""
from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest

from app.recurring import schedule
from app.recurring.tick import run_bucket
from models.groups import Balance, RecurringExpense
from app.ledger.expense_input import ExpenseInput, PaymentInput
from app.recurring.schemas import RecurringCreateSchema
from tests.recurring.helpers import template_body


def test_a_template_body_loads_its_expense_part_as_the_ledgers_input():
    """The create route's schema hands the service the expense part as the same typed
    input a one-off expense gets, and the schedule beside it."""
    me = str(uuid.uuid4())
    loaded = RecurringCreateSchema().load(template_body(me, 500, [me], start="2026-02-01"))
    assert isinstance(loaded["expense"], ExpenseInput)
    assert loaded["expense"].payments == (PaymentInput(me, 500),)
    assert loaded["expense"].sent == {"description", "category", "payments", "amount",
                                      "split_mode", "splits"}
    assert (loaded["frequency"], loaded["startDate"]) == ("MONTHLY", "2026-02-01")
    assert not set(loaded) & set(ExpenseInput._fields)


@pytest.fixture
def owner(client, sign_in):
    headers, _ = sign_in("tmpl@example.com")
    group = client.post("/groups", json={"name": "Flat", "currency": "EUR"},
                        headers=headers).get_json()
    base, me = f"/groups/{group['groupId']}", group["myParticipantId"]
    guest = client.post(f"{base}/participants", json={"displayName": "G"},
                        headers=headers).get_json()["participantId"]
    return headers, group["groupId"], base, [me, guest]


def _create(client, owner, **schedule):
    headers, _, base, ids = owner
    return client.post(f"{base}/recurring", json=template_body(ids[0], 1000, ids, **schedule),
                       headers=headers)


def test_create_returns_the_template_with_its_next_run(client, owner):
    reply = _create(client, owner, start="2026-01-31", timeZone="Europe/Paris")
    assert reply.status_code == 201, reply.get_json()
    body = reply.get_json()
    assert body["frequency"] == "MONTHLY" and body["interval"] == 1
    assert body["nextDate"] == "2026-01-31"
    assert body["nextRunAt"] == "2026-01-30T23:00:00.000Z"  # midnight in Paris (UTC+1)
    assert [s["amount"] for s in body["items"][0]["splits"]] == [500, 500]
    assert body["paused"] is False and body["timeZone"] == "Europe/Paris"


@pytest.mark.parametrize("change,field", [
    ({"frequency": "HOURLY"}, "frequency"),
    ({"interval": 0}, "interval"),
    ({"endDate": "2026-05-01", "count": 3}, "count"),
    ({"timeZone": "Mars/Olympus"}, "timeZone"),
    ({"date": "2026-01-01"}, "date"),
    ({"startDate": "2026-02-30"}, "startDate"),
    ({"endDate": "2025-01-01"}, "endDate"),
    ({"amount": 999}, None),  # the payments (1000) no longer sum to the amount
])
def test_create_validates_the_schedule_and_the_expense_body(client, owner, change, field):
    headers, _, base, ids = owner
    body = {**template_body(ids[0], 1000, ids), **change}
    reply = client.post(f"{base}/recurring", json=body, headers=headers)
    assert reply.status_code == 400, reply.get_json()
    if field:
        assert field in reply.get_json()["error"]["details"], reply.get_json()


def test_unknown_participant_is_409_and_writes_nothing(client, owner):
    headers, gid, base, ids = owner
    stranger = str(uuid.uuid4())
    reply = client.post(f"{base}/recurring", json=template_body(ids[0], 1000, [ids[0], stranger]),
                        headers=headers)
    assert reply.status_code == 409
    assert reply.get_json()["error"]["code"] == "PARTICIPANT_UNAVAILABLE"
    assert list(RecurringExpense.query(gid)) == []


def test_create_and_patch_bump_the_balance_revision(client, owner):
    headers, gid, base, _ = owner
    before = Balance.revision_of(Balance.fetch_raw(gid)) or 0
    made = _create(client, owner).get_json()
    after_create = Balance.revision_of(Balance.fetch_raw(gid))
    client.patch(f"{base}/recurring/{made['recurringId']}",
                 json={"description": "Rent+", "updatedAt": made["updatedAt"]}, headers=headers)
    assert after_create == before + 1
    assert Balance.revision_of(Balance.fetch_raw(gid)) == before + 2


def test_list_get_patch_delete(client, owner):
    headers, _, base, _ = owner
    made = [_create(client, owner, start=f"2026-0{m}-01").get_json() for m in (1, 2, 3)]
    page = client.get(f"{base}/recurring?limit=2", headers=headers).get_json()
    rest = client.get(f"{base}/recurring?limit=2&cursor={page['nextCursor']}",
                      headers=headers).get_json()
    assert len(page["items"]) == 2 and len(rest["items"]) == 1 and rest["nextCursor"] is None
    assert {t["recurringId"] for t in page["items"] + rest["items"]} == {
        t["recurringId"] for t in made}
    one = f"{base}/recurring/{made[0]['recurringId']}"
    assert client.get(one, headers=headers).get_json()["startDate"] == "2026-01-01"
    stale = made[0]["updatedAt"]
    patched = client.patch(one, json={"amount": 2000, "payments": [
        {"participantId": made[0]["payments"][0]["participantId"], "amount": 2000}],
        "paused": True, "updatedAt": stale}, headers=headers)
    assert patched.status_code == 200, patched.get_json()
    assert patched.get_json()["amount"] == 2000 and patched.get_json()["nextRunAt"] is None
    again = client.patch(one, json={"paused": False, "updatedAt": stale}, headers=headers)
    assert again.status_code == 409
    assert again.get_json()["error"]["code"] == "VERSION_CONFLICT"
    assert client.delete(one, headers=headers).status_code == 204
    assert client.get(one, headers=headers).status_code == 404
    assert client.delete(one, headers=headers).status_code == 404


def test_viewer_reads_but_cannot_create(client, owner, sign_in):
    from tests.ledger.helpers import join_directly
    headers, gid, base, ids = owner
    viewer_headers, viewer_id = sign_in("viewer@example.com")
    join_directly(gid, viewer_id, "VIEWER")
    assert client.get(f"{base}/recurring", headers=viewer_headers).status_code == 200
    reply = client.post(f"{base}/recurring", json=template_body(ids[0], 1000, ids),
                        headers=viewer_headers)
    assert reply.status_code == 403


def test_expense_list_and_detail_show_the_template(client, owner):
    headers, gid, base, _ = owner
    made = _create(client, owner, start="2026-01-01").get_json()
    run_bucket(RecurringExpense.bucket_of(gid), "2026-02-15T00:00:00Z")
    listed = client.get(f"{base}/expenses", headers=headers).get_json()["items"]
    assert [(e["date"], e["recurringId"]) for e in listed] == [
        ("2026-02-01", made["recurringId"]), ("2026-01-01", made["recurringId"])]
    detail = client.get(f"{base}/expenses/{listed[0]['expenseId']}", headers=headers).get_json()
    assert detail["recurringId"] == made["recurringId"]
    assert detail["recurringSlot"] == "2026-02-01"
    template = client.get(f"{base}/recurring/{made['recurringId']}", headers=headers).get_json()
    assert template["lastDate"] == "2026-02-01" and template["nextDate"] == "2026-03-01"


def test_schedule_patch_affects_only_future_occurrences(client, owner, monkeypatch):
    headers, gid, base, _ = owner
    # A history recorded in 2020, edited today: the template was created in 2020.
    monkeypatch.setattr(schedule, "window_now",
                        lambda: datetime(2020, 6, 1, tzinfo=timezone.utc))
    made = _create(client, owner, start="2020-01-01", frequency="YEARLY").get_json()
    run_bucket(RecurringExpense.bucket_of(gid), "2020-06-01T00:00:00Z")  # records 2020-01-01
    template = client.get(f"{base}/recurring/{made['recurringId']}", headers=headers).get_json()
    patched = client.patch(f"{base}/recurring/{made['recurringId']}",
                           json={"frequency": "MONTHLY", "updatedAt": template["updatedAt"]},
                           headers=headers).get_json()
    from datetime import date
    assert patched["nextDate"] >= date.today().isoformat()  # no back-fill of the new rule
    assert patched["lastDate"] == "2020-01-01"
