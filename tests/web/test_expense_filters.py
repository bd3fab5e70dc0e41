"""The expense list's filters in the web app (issue 49): by person (paid, or paid or shares),
category, date range, amount range and kind (expenses, income, payments between people). What
the list API filters (participantId, category, from, to, minAmount, maxAmount, q) is asked of
it; the kind, "paid" and the
settlements (whose list takes no filter) are filtered on the device, and so is everything
offline, from the stored group."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect

from tests.web.conftest import call
from tests.web.keyboard import assert_keyboard_reachable
from tests.web.test_web_app import create_group, sign_in


def _seed(phone, group_id: str) -> dict:
    """Four rows and a settlement, written through the API; returns name -> participantId."""
    _, reply = call(phone.url, "GET", f"/groups/{group_id}/participants", phone.token())
    items = reply["items"] if isinstance(reply, dict) else reply
    who = {p["displayName"]: p["participantId"] for p in items}
    rows = [("Groceries run", "GROCERIES", "2026-11-02", "EXPENSE", "Ana", ("Ana", "Bo"), 3000),
            ("Train tickets", "TRANSPORT", "2026-11-10", "EXPENSE", "Bo", ("Ana", "Bo", "Cy"), 4500),
            ("Refund", None, "2026-11-15", "INCOME", "Ana", ("Ana", "Bo"), 1000),
            ("Cinema", "ENTERTAINMENT", "2026-12-01", "EXPENSE", "Cy", ("Bo", "Cy"), 2400)]
    for description, category, date, kind, payer, shares, amount in rows:
        status, made = call(phone.url, "POST", f"/groups/{group_id}/expenses", phone.token(), {
            "description": description, "category": category, "date": date, "kind": kind,
            "amount": amount, "splitMode": "EQUAL",
            "payments": [{"participantId": who[payer], "amount": amount}],
            "splits": [{"participantId": who[name]} for name in shares]})
        assert status == 201, made
    status, made = call(phone.url, "POST", f"/groups/{group_id}/settlements", phone.token(), {
        "payerId": who["Bo"], "payeeId": who["Ana"], "amount": 1000, "date": "2026-11-20",
        "note": "cash"})
    assert status == 201, made
    return who


def test_filters_by_person_category_dates_and_kind_online_and_offline(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Ana")
    group_id = create_group(phone, "Autumn", guests=("Bo", "Cy"))
    who = _seed(phone, group_id)
    page.get_by_role("link", name="Expenses").click()
    rows = page.get_by_role("list", name="Expenses").get_by_role("listitem")
    expect(rows).to_have_count(4)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/expenses?" in r.url
            or "/settlements?" in r.url else None)

    def last_query(path: str) -> dict:
        [url] = [u for u in asked if urlparse(u).path.endswith(path)][-1:]
        return {k: v[0] for k, v in parse_qs(urlparse(url).query).items() if k != "limit"}

    def titles():
        return rows.locator(".title")

    # The filters open from the keyboard: Tab from the search field, Enter on "Filters".
    page.get_by_label("Search expenses").focus()
    page.keyboard.press("Tab")
    expect(page.locator("summary")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_label("Person")).to_be_visible()

    page.get_by_label("Person").select_option(label="Cy")
    expect(titles()).to_have_text(["Cinema", "Train tickets"])
    assert last_query("/expenses") == {"participantId": who["Cy"]}
    page.get_by_label("Their part").select_option("paid")  # the API has no "paid": kept here
    expect(titles()).to_have_text(["Cinema"])
    phone.assert_accessible("expenses, filtered by a person")
    phone.shot("filters")
    assert_keyboard_reachable(page, "expenses, filtered by a person")
    page.get_by_role("button", name="Clear filters").click()
    expect(rows).to_have_count(4)

    page.get_by_label("Category").select_option("TRANSPORT")
    expect(titles()).to_have_text(["Train tickets"])
    assert last_query("/expenses") == {"category": "TRANSPORT"}
    page.get_by_role("button", name="Clear filters").click()

    page.get_by_label("From", exact=True).fill("2026-11-05")
    page.get_by_label("To", exact=True).fill("2026-11-30")
    expect(titles()).to_have_text(["Refund", "Train tickets"])
    assert last_query("/expenses") == {"from": "2026-11-05", "to": "2026-11-30"}
    page.get_by_label("Kind").select_option("INCOME")
    expect(titles()).to_have_text(["Refund"])
    expect(rows).to_contain_text(["-€10.00"])
    page.get_by_label("Kind").select_option("SETTLEMENT")
    expect(titles()).to_have_text(["Bo paid Ana"])
    expect(rows).to_have_text(["Bo paid Ana€10.00cash · 2026-11-20"])
    assert last_query("/settlements") == {}  # no filter the settlements list could take
    page.get_by_label("From", exact=True).fill("2026-11-21")
    expect(page.get_by_text("Nothing matches these filters.")).to_be_visible()
    phone.assert_accessible("payments between people, nothing found")
    page.get_by_role("button", name="Clear filters").click()
    expect(rows).to_have_count(4)

    # An amount range, typed as money in the group's currency, inclusive at both ends.
    page.get_by_label("Amount from (EUR)").fill("24")
    # The list with the lower bound alone may already read the same: wait for the request
    # that carries both bounds, not just for the rows.
    with page.expect_request(lambda r: "minAmount=2400" in r.url and "maxAmount=4500" in r.url):
        page.get_by_label("Amount up to (EUR)").fill("45,00")
    expect(titles()).to_have_text(["Cinema", "Train tickets", "Groceries run"])
    assert last_query("/expenses") == {"minAmount": "2400", "maxAmount": "4500"}
    page.get_by_label("Amount up to (EUR)").fill("10")  # above the lower bound: said, not sent
    expect(page.get_by_role("alert")).to_have_text(
        "The amounts must be amounts, the first not above the second.")
    assert last_query("/expenses") == {"minAmount": "2400", "maxAmount": "4500"}
    page.get_by_label("Amount from (EUR)").fill("")
    page.get_by_label("Kind").select_option("SETTLEMENT")  # the settlements' list: kept here
    expect(titles()).to_have_text(["Bo paid Ana"])
    page.get_by_label("Amount up to (EUR)").fill("9.99")
    expect(page.get_by_text("Nothing matches these filters.")).to_be_visible()
    phone.assert_accessible("expenses filtered by amount")
    page.get_by_role("button", name="Clear filters").click()
    expect(rows).to_have_count(4)

    # Offline: the stored group, filtered on this device by the same rules.
    phone.context.set_offline(True)
    before = len(asked)
    page.get_by_label("Kind").select_option("EXPENSE")
    page.get_by_label("Person").select_option(label="Ana")
    expect(page.get_by_text("Offline: filtered on this device.")).to_be_visible()
    expect(titles()).to_have_text(["Train tickets", "Groceries run"])
    page.get_by_label("Search expenses").fill("GROCERIES")
    expect(titles()).to_have_text(["Groceries run"])
    page.get_by_label("Search expenses").fill("")
    page.get_by_label("Amount from (EUR)").fill("31")
    expect(titles()).to_have_text(["Train tickets"])
    assert len(asked) == before
    phone.assert_accessible("expenses filtered offline")
    phone.context.set_offline(False)
