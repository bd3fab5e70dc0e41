"""Balances that explain themselves in the web app (issue 49, api.md "Balances that explain
themselves"): the simplified plan and the pairwise view, the group's simplifyDebts choosing
the first one shown; households as units in the plan; a participant's statement, paged with
nextCursor, with the net after each row and a kept currency's own section."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.web.conftest import call
from tests.web.test_web_app import create_group, sign_in


def _ids(url: str, token: str, group_id: str) -> dict[str, str]:
    _, reply = call(url, "GET", f"/groups/{group_id}/participants", token)
    items = reply["items"] if isinstance(reply, dict) else reply
    return {p["displayName"]: p["participantId"] for p in items}


def _expense(url, token, group_id, description, payer, amount, shares, currency=None):
    body = {"description": description, "amount": amount, "splitMode": "EQUAL",
            "payments": [{"participantId": payer, "amount": amount}],
            "splits": [{"participantId": p, "value": 1} for p in shares]}
    if currency:
        body["currency"] = currency
    status, reply = call(url, "POST", f"/groups/{group_id}/expenses", token, body)
    assert status == 201, reply
    return reply


def test_plan_and_pairwise_views_households_and_a_paged_statement(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Ann")
    group_id = create_group(phone, f"Trip {uuid.uuid4().hex[:4]}", guests=("Bo", "Cy"))
    token = phone.token()
    who = _ids(phone.url, token, group_id)
    ann, bo, cy = who["Ann"], who["Bo"], who["Cy"]
    # Ann pays 30 for all three; Bo pays 12 for Bo and Cy; Cy pays 9 USD for Ann (kept).
    _expense(phone.url, token, group_id, "Dinner", ann, 3000, [ann, bo, cy])
    _expense(phone.url, token, group_id, "Taxi", bo, 1200, [bo, cy])
    _expense(phone.url, token, group_id, "Museum", cy, 900, [ann], currency="USD")

    page.get_by_role("link", name="Balances").click()
    simplified = page.get_by_role("radio", name="Simplified plan (fewest payments)")
    pairwise = page.get_by_role("radio", name="Who owes whom (pairwise)")
    expect(simplified).to_be_checked()  # simplifyDebts is on by default
    expect(page.get_by_role("heading", name="Plan to settle up")).to_be_visible()
    expect(page.get_by_text("Cy pays Ann €16.00")).to_be_visible()
    expect(page.get_by_text("Bo pays Ann €4.00")).to_be_visible()
    # The kept currency has its own section and plan.
    expect(page.get_by_role("heading", name="Balances in USD")).to_be_visible()
    expect(page.get_by_text("Ann pays Cy $9.00")).to_be_visible()

    simplified.focus()  # keyboard only: the radio group is one tab stop, arrows move in it
    page.keyboard.press("ArrowDown")
    expect(pairwise).to_be_checked()
    expect(page.get_by_role("heading", name="Who owes whom")).to_be_visible()
    expect(page.get_by_text("Bo pays Ann €10.00")).to_be_visible()
    expect(page.get_by_text("Cy pays Ann €10.00")).to_be_visible()
    expect(page.get_by_text("Cy pays Bo €6.00")).to_be_visible()
    phone.assert_accessible("balances, pairwise")
    phone.shot("balances-pairwise")

    # Households settle as units: Bo and Cy's flat pays Ann once.
    for pid in (bo, cy):
        status, reply = call(phone.url, "PATCH", f"/groups/{group_id}/participants/{pid}", token,
                             {"household": "Flat 2"})
        assert status == 200, reply
    page.reload()
    expect(simplified).to_be_checked()
    households = page.get_by_role("list", name="Households")
    expect(households).to_contain_text("Flat 2")
    expect(households).to_contain_text("Bo, Cy")
    expect(page.get_by_text("Flat 2 pays Ann €20.00")).to_be_visible()
    phone.assert_accessible("balances, households")
    phone.shot("balances-households")

    # Cy's statement, one row a page (the server's page size, forced small), running net.
    page.route(re.compile(r".*/statement\?.*"), lambda route: route.continue_(
        url=re.sub(r"limit=\d+", "limit=1", route.request.url)))
    page.get_by_role("link", name="Cy: statement").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Statement: Cy")
    expect(page.get_by_text("Cy owes €16.00")).to_be_visible()
    rows = page.get_by_role("list", name="What moved Cy’s balance").get_by_role("listitem")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("Dinner")
    expect(rows.nth(0)).to_contain_text("−€10.00")
    expect(rows.nth(0)).to_contain_text("Balance after: -€10.00")
    more = page.get_by_role("button", name="Show more")
    while more.count():  # a page may hold no row of Cy's (each page is one Query)
        more.click()
        page.wait_for_load_state("networkidle")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_contain_text("Taxi")
    expect(rows.nth(1)).to_contain_text("share €6.00")
    expect(rows.nth(1)).to_contain_text("Balance after: -€16.00")
    phone.assert_accessible("statement")
    phone.shot("statement")

    page.get_by_label("Currency").select_option("USD")
    expect(page.get_by_text("Cy is owed $9.00")).to_be_visible()
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("Museum")
    expect(rows.nth(0)).to_contain_text("paid $9.00")
    page.unroute(re.compile(r".*/statement\?.*"))

    # The owner turns simplifyDebts off in the group's settings: pairwise is shown first.
    page.get_by_role("link", name="Back").click()
    page.get_by_role("link", name="Manage group").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Group settings")
    page.get_by_label("Simplify debts").uncheck()
    page.get_by_label("Rounding").select_option("FAIR")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    phone.assert_accessible("group settings")
    phone.shot("group-settings")
    _, group = call(phone.url, "GET", f"/groups/{group_id}", token)
    assert (group["simplifyDebts"], group["rounding"]) == (False, "FAIR")
    page.get_by_role("link", name="Back").click()
    page.get_by_role("link", name="Balances").click()
    expect(pairwise).to_be_checked()
    expect(page.get_by_role("heading", name="Who owes whom")).to_be_visible()
