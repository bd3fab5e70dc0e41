"""Archive and trash in the web app (issue 49, api.md "Archive and trash"): the group's trash
lists deleted expenses and restores one (a row naming someone who has left is refused, in
words); the owner archives the group: home lists it apart, its screens read but offer no
write, saying why; unarchived, the writes are back."""
from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.web.conftest import call
from tests.web.test_balances_views import _expense, _ids
from tests.web.test_web_app import create_group, sign_in


def test_trash_restores_and_an_archived_group_reads_without_writes(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Ava")
    name = f"Cabin {uuid.uuid4().hex[:4]}"
    group_id = create_group(phone, name, guests=("Cy", "Di"))
    token = phone.token()
    who = _ids(phone.url, token, group_id)
    ava, cy, di = who["Ava"], who["Cy"], who["Di"]
    firewood = _expense(phone.url, token, group_id, "Firewood", ava, 3000, [ava, di])
    snacks = _expense(phone.url, token, group_id, "Snacks", ava, 1000, [ava, cy])
    for expense in (firewood, snacks):
        status, reply = call(phone.url, "DELETE", f"/groups/{group_id}/expenses/{expense['expenseId']}", token)
        assert status == 204, reply
    # Cy is named only by a trashed row, so he may leave; Snacks can then not come back.
    status, reply = call(phone.url, "DELETE", f"/groups/{group_id}/participants/{cy}", token)
    assert status == 204, reply

    page.reload()
    page.get_by_role("link", name="Trash").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Trash")
    trash = page.get_by_role("list", name="Trash")
    expect(trash.get_by_role("listitem")).to_have_count(2)
    expect(trash.get_by_role("listitem").nth(0)).to_contain_text("Snacks")  # newest deletion first
    expect(trash.get_by_role("listitem").nth(0)).to_contain_text("Deleted by Ava on")
    phone.assert_accessible("trash")
    phone.shot("trash")

    trash.get_by_role("button", name="Restore Firewood").click()
    expect(page.get_by_role("status")).to_have_text("Firewood is back.")
    expect(trash.get_by_role("listitem")).to_have_count(1)
    _, restored = call(phone.url, "GET", f"/groups/{group_id}/expenses/{firewood['expenseId']}", token)
    assert restored["version"] > firewood["version"]
    trash.get_by_role("button", name="Restore Snacks").click()
    expect(page.get_by_role("alert")).to_have_text(
        "This cannot be restored: someone it names has left the group.")
    phone.assert_accessible("trash, refused")

    # The owner archives it from the group's settings (not settled: it says so).
    page.get_by_role("link", name="Back").click()
    expect(page.get_by_role("link", name="Edit Firewood")).to_be_visible()
    page.get_by_role("link", name="Manage group").click()
    page.get_by_role("button", name="Archive group").click()
    expect(page.get_by_role("status")).to_have_text(
        "The group is archived, though not everyone is settled up.")
    expect(page.get_by_role("group", name="Group settings").get_by_role("textbox")).to_be_disabled()
    phone.assert_accessible("group settings, archived")

    page.get_by_role("link", name="Back").click()
    banner = page.get_by_role("note")
    expect(banner).to_contain_text("This group is archived: you can read it, but nothing can be added or changed.")
    expect(page.get_by_text("Firewood")).to_be_visible()  # it still reads
    for gone in ("Add expense", "Scan a receipt", "Recurring expenses", "Edit Firewood"):
        expect(page.get_by_role("link", name=gone)).to_have_count(0)
    phone.assert_accessible("group, archived")
    phone.shot("archived")
    page.get_by_role("link", name="People").click()
    expect(page.get_by_role("button", name="Add guest")).to_have_count(0)
    page.get_by_role("link", name="Balances").click()
    expect(page.get_by_text("Di pays Ava €15.00")).to_be_visible()
    expect(page.get_by_role("link", name="Settle up")).to_have_count(0)
    page.get_by_role("link", name="Trash").click()
    expect(page.get_by_role("list", name="Trash").get_by_text("Snacks")).to_be_visible()
    expect(page.get_by_role("button", name="Restore Snacks")).to_have_count(0)

    page.get_by_role("link", name="Groups").click()
    expect(page.get_by_role("list", name="Archived groups").get_by_role("link", name=name)).to_be_visible()
    expect(page.get_by_role("list", name="Your groups").get_by_role("link", name=name)).to_have_count(0)
    phone.assert_accessible("home, archived apart")
    phone.shot("home-archived")

    # Unarchived: the writes are back.
    page.get_by_role("list", name="Archived groups").get_by_role("link", name=name).click()
    page.get_by_role("link", name="Manage group").click()
    page.get_by_role("button", name="Unarchive group").click()
    expect(page.get_by_role("status")).to_have_text("The group is active again.")
    page.get_by_role("link", name="Back").click()
    expect(page.get_by_role("link", name="Add expense")).to_be_visible()
    expect(page.get_by_role("note")).to_have_count(0)
    _, group = call(phone.url, "GET", f"/groups/{group_id}", token)
    assert group["archived"] is False
