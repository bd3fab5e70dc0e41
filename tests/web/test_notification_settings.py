"""Notification settings in the web app (issue 49, api.md "Notifications"): each type on or
off and groups muted, each change sent at once and held by the server."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import call
from tests.web.test_web_app import create_group, sign_in


def test_notification_types_and_muted_groups_are_saved_on_the_server(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Nia")
    group_id = create_group(phone, "Choir")
    page.get_by_role("link", name="Settings").click()
    types = page.get_by_role("group", name="Tell me when")
    added = types.get_by_role("checkbox", name="An expense is added")
    expect(added).to_be_checked()
    added.uncheck()
    expect(page.get_by_role("status")).to_have_text("Notification settings saved.")
    expect(added).not_to_be_checked()
    mute = page.get_by_role("group", name="Muted groups").get_by_role("checkbox", name="Mute Choir")
    expect(mute).not_to_be_checked()
    mute.check()
    expect(mute).to_be_checked()
    phone.assert_accessible("settings, notifications")
    phone.shot("notifications")

    _, prefs = call(phone.url, "GET", "/notifications/preferences", phone.token())
    assert prefs["types"]["EXPENSE_ADDED"]["push"] is False and prefs["types"]["REMINDER"]["push"] is True
    assert prefs["mutedGroupIds"] == [group_id]

    page.reload()  # what the screen shows comes from the server
    expect(page.get_by_role("checkbox", name="An expense is added")).not_to_be_checked()
    expect(page.get_by_role("checkbox", name="Mute Choir")).to_be_checked()
    page.get_by_role("checkbox", name="Mute Choir").uncheck()
    expect(page.get_by_role("checkbox", name="Mute Choir")).not_to_be_checked()
    expect(page.get_by_role("status")).to_have_text("Notification settings saved.")
    assert call(phone.url, "GET", "/notifications/preferences", phone.token())[1]["mutedGroupIds"] == []
