"""POST /groups/{groupId}/reminders: who may be reminded, the REMINDER notification, 24 h."""
from __future__ import annotations

import threading

import pytest

from tests.ledger.helpers import join_directly
from tests.notifications.conftest import pending_records, run_worker


@pytest.fixture
def debt(group, client, sign_in):
    """The owner paid 10.00 EUR for herself and Bo, and has a PayPal link; Bo owes 5.00."""
    bo_h, bo = sign_in("bo@example.com", display_name="Bo")
    put = client.put("/users/me/payment-methods", headers=group.headers,
                     json={"methods": [{"type": "PAYPAL", "handle": "ownerpays"}]})
    assert put.status_code == 200, put.get_json()
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    group.add_expense(1000, payer=group.me, among=[group.me, bo_pid])
    return bo_h, bo_pid


def remind(group, participant_id, headers=None):
    return group.post("/reminders", {"participantId": participant_id}, headers=headers)


def deliver(recorder) -> None:
    assert run_worker(pending_records()) == []


def history(client, headers) -> list:
    return client.get("/notifications", headers=headers).get_json()["items"]


def test_a_reminder_reaches_the_debtors_history_with_amount_and_link(group, client, debt,
                                                                      recorder):
    bo_h, bo_pid = debt
    reply = remind(group, bo_pid)
    assert reply.status_code == 202, reply.get_json()
    body = reply.get_json()
    assert body["owed"] == [{"currency": "EUR", "amount": 500, "payTo": [
        {"type": "PAYPAL", "url": "https://paypal.me/ownerpays/5.00EUR"}]}]
    deliver(recorder)
    (item,) = [n for n in history(client, bo_h) if n["type"] == "REMINDER"]
    assert "€5.00" in item["body"] and "https://paypal.me/ownerpays/5.00EUR" in item["body"]


def test_kept_currency_sections_are_named_too(group, client, debt, recorder):
    bo_h, bo_pid = debt
    reply = group.post("/expenses", {"description": "Taxi", "amount": 600, "currency": "USD",
                                     "splitMode": "EQUAL",
                                     "payments": [{"participantId": group.me, "amount": 600}],
                                     "splits": [{"participantId": group.me},
                                                {"participantId": bo_pid}]})
    assert reply.status_code == 201, reply.get_json()
    owed = remind(group, bo_pid).get_json()["owed"]
    assert [(o["currency"], o["amount"]) for o in owed] == [("EUR", 500), ("USD", 300)]
    deliver(recorder)
    (item,) = [n for n in history(client, bo_h) if n["type"] == "REMINDER"]
    assert "€5.00 and $3.00" in item["body"]


def test_a_guest_or_someone_owing_nothing_is_409(group, client, debt, sign_in):
    bo_h, bo_pid = debt
    group.add_expense(900, payer=group.me, among=[group.me, group.guests[0]])
    guest = remind(group, group.guests[0])
    assert guest.status_code == 409 and guest.get_json()["error"]["code"] == "NOTHING_OWED"
    # Bo owes the owner; the owner owes Bo nothing, so Bo cannot remind her.
    reverse = remind(group, group.me, headers=bo_h)
    assert reverse.status_code == 409 and reverse.get_json()["error"]["code"] == "NOTHING_OWED"
    _, cy = sign_in("cy@example.com", display_name="Cy")
    cy_pid = join_directly(group.group_id, cy, "MEMBER", "Cy")
    assert remind(group, cy_pid).get_json()["error"]["code"] == "NOTHING_OWED"
    assert remind(group, group.me).status_code == 409  # not oneself either


def test_an_unknown_participant_is_409_as_for_every_other_writer(group, debt, other_group):
    """Expenses and settlements answer a participantId that is not in the group with 409
    PARTICIPANT_UNAVAILABLE; a reminder answered 404, which the stateful fuzz (ST302) saw
    as one body field refused two ways."""
    for unknown in (other_group.me, "00000000-0000-4000-8000-000000000000"):
        reply = remind(group, unknown)
        assert reply.status_code == 409, reply.get_json()
        error = reply.get_json()["error"]
        assert error["code"] == "PARTICIPANT_UNAVAILABLE"
        assert error["details"] == {"participantId": unknown}


def test_a_second_reminder_within_24h_is_429_with_retry_after(group, debt):
    _, bo_pid = debt
    assert remind(group, bo_pid).status_code == 202
    again = remind(group, bo_pid)
    assert again.status_code == 429
    assert again.get_json()["error"]["code"] == "REMINDER_TOO_SOON"
    assert 24 * 3600 - 60 <= int(again.headers["Retry-After"]) <= 24 * 3600


def test_an_expired_marker_allows_the_next_reminder(group, debt, monkeypatch):
    from app.insight import reminders
    _, bo_pid = debt
    assert remind(group, bo_pid).status_code == 202
    later = reminders.epoch() + 24 * 3600
    monkeypatch.setattr(reminders, "epoch", lambda: later)  # the TTL has not reaped it yet
    assert remind(group, bo_pid).status_code == 202


def test_the_switch_off_leaves_no_history_row(group, client, debt, recorder):
    bo_h, bo_pid = debt
    off = client.patch("/notifications/preferences", json={"types": {"REMINDER": False}},
                       headers=bo_h)
    assert off.status_code == 200 and off.get_json()["types"]["REMINDER"]["push"] is False
    assert remind(group, bo_pid).status_code == 202
    deliver(recorder)
    assert [n for n in history(client, bo_h) if n["type"] == "REMINDER"] == []


def test_a_muted_group_leaves_no_history_row(group, client, debt, recorder):
    bo_h, bo_pid = debt
    assert client.put(f"/notifications/mutes/{group.group_id}", headers=bo_h).status_code < 300
    assert remind(group, bo_pid).status_code == 202
    deliver(recorder)
    assert [n for n in history(client, bo_h) if n["type"] == "REMINDER"] == []


def test_a_viewer_cannot_remind(group, client, sign_in, debt):
    _, bo_pid = debt
    vi_h, vi = sign_in("vi@example.com", display_name="Vi")
    join_directly(group.group_id, vi, "VIEWER", "Vi")
    assert remind(group, bo_pid, headers=vi_h).status_code == 403


def test_parallel_reminders_make_exactly_one(group, client, debt, recorder):
    bo_h, bo_pid = debt
    barrier, codes = threading.Barrier(2), []

    def send():
        barrier.wait()
        codes.append(remind(group, bo_pid).status_code)

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [202, 429]
    deliver(recorder)
    assert len([n for n in history(client, bo_h) if n["type"] == "REMINDER"]) == 1


def test_a_reminder_reads_the_per_person_plan_even_with_households(group, client, sign_in):
    """The owner paid 30.00 for herself, Bo and guest 0; Bo and the guest share a household
    whose representative is the guest (entered first): Bo still owes the owner 10.00."""
    _, bo = sign_in("bo@example.com", display_name="Bo")
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    guest = group.guests[0]
    group.add_expense(3000, payer=group.me, among=[group.me, bo_pid, guest])
    for pid in (guest, bo_pid):
        assert group.patch(f"/participants/{pid}", {"household": "Flat"}).status_code == 200
    plan = group.get("/balances").get_json()["transfers"]
    assert [(t["fromParticipantId"], t["amount"]) for t in plan] == [(guest, 2000)]
    reply = remind(group, bo_pid)
    assert reply.status_code == 202, reply.get_json()
    assert [(o["currency"], o["amount"]) for o in reply.get_json()["owed"]] == [("EUR", 1000)]
