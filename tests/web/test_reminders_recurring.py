"""Reminders and recurring expenses in the web app (issue 49): the person owed reminds a
member who pays them in the plan (the reminder reaches that account's notifications, a second
the same day is refused with the server's message); recurring templates are listed, made,
paused, resumed and deleted."""
from __future__ import annotations

import re
import time
import uuid

from playwright.sync_api import expect

from tests.web.conftest import call
from tests.web.test_web_app import add_expense, create_group, sign_in


def _member(url: str, owner_token: str, group_id: str, name: str) -> str:
    """A second account joined to the group (direct invitation, accepted): its token."""
    status, made = call(url, "POST", "/dev/tokens", None,
                        {"email": f"{name.lower()}-{uuid.uuid4().hex[:8]}@example.com", "displayName": name})
    assert status == 201, made
    # Discoverable, so the owner may invite them without being friends first.
    status, reply = call(url, "PUT", "/people/me/handle", made["accessToken"],
                         {"handle": f"{name.lower()}_{uuid.uuid4().hex[:8]}", "discoverable": True})
    assert status == 200, reply
    status, reply = call(url, "POST", f"/groups/{group_id}/invitations", owner_token,
                         {"userId": made["userId"], "role": "MEMBER"})
    assert status == 201, reply
    status, reply = call(url, "POST", f"/people/me/invitations/{group_id}/accept", made["accessToken"])
    assert status in (200, 201), reply
    return made["accessToken"]


def test_the_person_owed_reminds_a_member_once_a_day(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Ann")
    group_id = create_group(phone, "Flat share")
    bea = _member(phone.url, phone.token(), group_id, "Bea")
    page.reload()
    expect(page.get_by_role("list", name="People").get_by_text("Bea", exact=True)).to_be_visible()
    page.get_by_role("link", name="Expenses").click()
    add_expense(page, "Internet", "40.00")
    expect(page.get_by_role("link", name="Edit Internet")).to_be_visible()

    page.get_by_role("link", name="Balances").click()
    expect(page.get_by_text("Bea pays Ann €20.00")).to_be_visible()
    page.get_by_role("button", name="Remind Bea").click()
    expect(page.get_by_role("status").filter(has_text="Reminder sent to Bea.")).to_be_visible()
    phone.assert_accessible("balances, reminded")
    phone.shot("reminder")

    deadline = time.monotonic() + 10
    while True:
        _, inbox = call(phone.url, "GET", "/notifications", bea)
        if any(n["type"] == "REMINDER" and n["groupId"] == group_id for n in inbox["items"]):
            break
        assert time.monotonic() < deadline, inbox
        time.sleep(0.2)

    page.reload()  # the button is back; a second reminder today is refused, and says why
    page.get_by_role("button", name="Remind Bea").click()
    expect(page.get_by_role("alert")).to_contain_text("Something went wrong")


def test_recurring_expenses_are_made_paused_resumed_and_deleted(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Rob")
    group_id = create_group(phone, "Studio", guests=("Cy",))
    page.get_by_role("link", name="Expenses").click()
    page.get_by_role("link", name="Recurring expenses").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Recurring expenses")
    expect(page.get_by_text("No recurring expenses yet.")).to_be_visible()
    page.get_by_label("Description").fill("Rent")
    page.get_by_label("Amount").fill("1200")
    page.get_by_label("Repeats").select_option("MONTHLY")
    page.get_by_label("First date").fill("2030-01-31")
    page.get_by_role("button", name="Create recurring expense").click()
    templates = page.get_by_role("list", name="Recurring expenses")
    expect(templates).to_contain_text("Rent")
    expect(templates).to_contain_text("€1,200.00")
    expect(templates).to_contain_text("every month · next on 2030-01-31")
    phone.assert_accessible("recurring")
    phone.shot("recurring")

    _, listed = call(phone.url, "GET", f"/groups/{group_id}/recurring", phone.token())
    [rent] = listed["items"]
    assert (rent["amount"], rent["frequency"], rent["startDate"]) == (120000, "MONTHLY", "2030-01-31")
    assert sorted(s["value"] for s in rent["items"][0]["splits"]) == [1, 1]

    page.get_by_role("button", name="Pause Rent").click()
    expect(templates).to_contain_text("paused")
    assert call(phone.url, "GET", f"/groups/{group_id}/recurring", phone.token())[1]["items"][0]["paused"]
    page.get_by_role("button", name="Resume Rent").click()
    expect(templates).to_contain_text(re.compile(r"next on \d{4}-\d{2}-\d{2}"))
    page.get_by_role("button", name="Delete Rent").click()
    expect(page.get_by_text("No recurring expenses yet.")).to_be_visible()
    assert call(phone.url, "GET", f"/groups/{group_id}/recurring", phone.token())[1]["items"] == []
