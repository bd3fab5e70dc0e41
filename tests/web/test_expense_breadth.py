"""The expense form's breadth in the web app (issue 49, api.md "Money as people share it"):
income, the ADJUSTMENT split, tax/tip/discount extras typed as amounts or percentages of the
subtotal, a converted currency, the group's default split pre-filled (and edited by its
owner), and households set and cleared on a participant's screen. Each reaches the server as
typed; every screen passes axe-core at WCAG 2.2 AA at 375 px."""
from __future__ import annotations

from urllib.parse import quote

from playwright.sync_api import expect

from tests.web.conftest import call
from tests.web.keyboard import assert_keyboard_reachable
from tests.web.test_web_app import create_group, sign_in


def _people(phone, group_id: str) -> dict:
    """displayName -> participant, as the server holds them."""
    _, reply = call(phone.url, "GET", f"/groups/{group_id}/participants", phone.token())
    items = reply["items"] if isinstance(reply, dict) else reply
    return {p["displayName"]: p for p in items}


def _expense(phone, group_id: str, description: str) -> dict:
    _, reply = call(phone.url, "GET", f"/groups/{group_id}/expenses?q={quote(description)}", phone.token())
    [found] = [e for e in reply["items"] if e["description"] == description]
    return found


def _euros(minor: int) -> str:
    """-80 -> "-€0.80", as the app's en-US money reads."""
    sign = "-" if minor < 0 else ""
    return f"{sign}€{abs(minor) // 100}.{abs(minor) % 100:02d}"


def test_the_default_split_is_set_by_the_owner_and_fills_a_new_expense_and_households_are_set(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Ines")
    group_id = create_group(phone, "Road trip", guests=("Bo", "Cy"))

    page.get_by_role("link", name="Default split").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Default split")
    page.get_by_label("Split", exact=True).select_option("SHARES")
    page.get_by_role("checkbox", name="Cy").uncheck()
    page.get_by_label("By shares for Ines").fill("2")
    page.get_by_label("By shares for Bo").fill("1")
    page.get_by_role("button", name="Save default split").click()
    expect(page.get_by_role("status")).to_have_text("Default split saved.")
    phone.assert_accessible("default split")
    phone.shot("default-split")
    assert_keyboard_reachable(page, "default split")
    people = _people(phone, group_id)
    _, group = call(phone.url, "GET", f"/groups/{group_id}", phone.token())
    assert group["defaultSplit"]["splitMode"] == "SHARES"
    assert {s["participantId"]: s["value"] for s in group["defaultSplit"]["splits"]} == {
        people["Ines"]["participantId"]: 2, people["Bo"]["participantId"]: 1}

    # A household for Bo, and one set then cleared for Cy (PATCH participant, OWNER).
    page.get_by_role("link", name="Back").click()
    for name in ("Bo", "Cy"):
        page.get_by_role("list", name="People").get_by_role("link", name=name).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(name)
        page.get_by_label("Household name").fill("Flat 2")
        page.get_by_role("button", name="Save household").click()
        expect(page.get_by_role("status")).to_have_text("Household saved.")
        expect(page.get_by_text("Household: Flat 2", exact=True)).to_be_visible()
        if name == "Bo":
            phone.assert_accessible("participant, household")
            phone.shot("household")
            assert_keyboard_reachable(page, "participant, household")
        page.get_by_role("link", name="Back").click()
    page.get_by_role("list", name="People").get_by_role("link", name="Cy").click()
    page.get_by_role("button", name="Leave household").click()
    expect(page.get_by_role("status")).to_have_text("No household any more.")
    people = _people(phone, group_id)
    assert (people["Bo"]["household"], people["Cy"]["household"]) == ("Flat 2", None)

    # A new expense starts from the default split.
    page.get_by_role("link", name="Back").click()
    page.get_by_role("link", name="Expenses").click()
    page.get_by_role("link", name="Add expense").click()
    expect(page.get_by_label("Split", exact=True)).to_have_value("SHARES")
    expect(page.get_by_label("By shares for Ines")).to_have_value("2")
    expect(page.get_by_label("By shares for Bo")).to_have_value("1")
    expect(page.get_by_role("checkbox", name="Cy")).not_to_be_checked()
    page.get_by_label("Description").fill("Fuel")
    page.get_by_label("Amount").fill("30")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("link", name="Edit Fuel")).to_be_visible()
    fuel = _expense(phone, group_id, "Fuel")
    assert {s["participantId"]: (s["value"], s["amount"]) for s in fuel["items"][0]["splits"]} == {
        people["Ines"]["participantId"]: (2, 2000), people["Bo"]["participantId"]: (1, 1000)}

    # The owner clears the default: the next expense is split equally between everyone.
    page.get_by_role("link", name="People").click()
    page.get_by_role("link", name="Default split").click()
    page.get_by_role("button", name="Clear default split").click()
    expect(page.get_by_role("status")).to_contain_text("Default split cleared")
    _, group = call(phone.url, "GET", f"/groups/{group_id}", phone.token())
    assert group["defaultSplit"] is None


def test_income_adjustments_extras_and_a_converted_currency_reach_the_server_as_typed(phones):
    phone = phones()
    page = phone.page
    sign_in(phone, "Ines")
    group_id = create_group(phone, "Dinner club", guests=("Bo", "Cy"))
    people = _people(phone, group_id)
    ines, bo, cy = (people[n]["participantId"] for n in ("Ines", "Bo", "Cy"))
    page.get_by_role("link", name="Expenses").click()

    # ADJUSTMENT: Ines +5.00, Bo −2.50, Cy 0; a 12.5 % tip of 60.10 (7.5125 → 7.51), a 2.00
    # discount and a free-text extra of 3.00.
    page.get_by_role("link", name="Add expense").click()
    page.get_by_label("Description").fill("Dinner")
    page.get_by_label("Amount", exact=True).fill("60.10")
    page.get_by_label("Split", exact=True).select_option("ADJUSTMENT")
    page.get_by_label("Adjustments for Ines").fill("+5")
    page.get_by_label("Adjustments for Bo").fill("-2.50")
    page.get_by_role("button", name="Add tax, tip or discount").click()
    tip = page.get_by_role("group", name="Extra 1")
    tip.get_by_label("Percent").fill("12.5")
    expect(tip.get_by_text("= €7.51")).to_be_visible()
    page.get_by_role("button", name="Add tax, tip or discount").click()
    discount = page.get_by_role("group", name="Extra 2")
    discount.get_by_label("What").select_option("discount")
    discount.get_by_label("As").select_option("amount")
    discount.get_by_label("Extra amount").fill("2")
    page.get_by_role("button", name="Add tax, tip or discount").click()
    corkage = page.get_by_role("group", name="Extra 3")
    corkage.get_by_label("What").select_option("other")
    corkage.get_by_label("Name of the extra").fill("Corkage")
    corkage.get_by_label("As").select_option("amount")
    corkage.get_by_label("Extra amount").fill("3")
    expect(page.get_by_text("Subtotal €60.10")).to_be_visible()
    expect(page.get_by_text("Total €68.61")).to_be_visible()
    phone.assert_accessible("add expense, adjustments and extras")
    phone.shot("expense-extras")
    assert_keyboard_reachable(page, "add expense, adjustments and extras")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("link", name="Edit Dinner")).to_be_visible()
    dinner = _expense(phone, group_id, "Dinner")
    assert dinner["amount"] == 6861 and dinner["kind"] == "EXPENSE"
    [item] = dinner["items"]
    assert (item["splitMode"], item["amount"]) == ("ADJUSTMENT", 6010)
    assert {s["participantId"]: s["value"] for s in item["splits"]} == {ines: 500, bo: -250, cy: 0}
    assert [(x["name"], x["amount"]) for x in dinner["extras"]] == [
        ("tip", 751), ("discount", -200), ("Corkage", 300)]

    # The saved expense shows the server's share of each extra per person.
    page.get_by_role("link", name="Edit Dinner").click()
    expect(page.get_by_role("heading", name="Who pays the extras")).to_be_visible()
    name = {ines: "Ines", bo: "Bo", cy: "Cy"}
    for extra, label in zip(dinner["extras"], ("Tip", "Discount", "Corkage"), strict=True):
        shares = page.get_by_role("list", name=label, exact=True).get_by_role("listitem")
        expect(shares).to_have_text([name[s["participantId"]] + _euros(s["amount"])
                                     for s in extra["shares"]])
    phone.assert_accessible("edit expense, extra shares")
    phone.shot("expense-extra-shares")
    assert_keyboard_reachable(page, "edit expense, extra shares")
    page.get_by_role("link", name="Back").click()

    # Income: money Bo received for the group, shown with the opposite sign.
    page.get_by_role("link", name="Add expense").click()
    page.get_by_role("radio", name="Money received").check()
    page.get_by_label("Description").fill("Deposit back")
    page.get_by_label("Amount", exact=True).fill("90")
    page.get_by_label("Received by").select_option(label="Bo")
    page.get_by_role("button", name="Save").click()
    row = page.get_by_role("list", name="Expenses").get_by_role("listitem").filter(has_text="Deposit back")
    expect(row).to_contain_text("-€90.00")
    expect(row).to_contain_text("Bo received €90.00")
    deposit = _expense(phone, group_id, "Deposit back")
    assert deposit["kind"] == "INCOME" and deposit["payments"] == [{"participantId": bo, "amount": 9000}]

    # Another currency converted at a typed rate: 20 USD at 0.9 is 18.00 EUR.
    page.get_by_role("link", name="Add expense").click()
    page.get_by_label("Description").fill("Museum")
    page.get_by_label("Amount", exact=True).fill("20")
    page.get_by_label("Currency").select_option("USD")
    page.get_by_label("Exchange").select_option("rate")
    page.get_by_label("1 USD in EUR").fill("0.9")
    phone.assert_accessible("add expense, converted")
    assert_keyboard_reachable(page, "add expense, converted")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("link", name="Edit Museum")).to_be_visible()
    expect(page.get_by_role("list", name="Expenses").get_by_role("listitem").filter(has_text="Museum")) \
        .to_contain_text("Ines paid $20.00 = €18.00")
    phone.assert_accessible("expenses with income")
    phone.shot("expenses-income")
    museum = _expense(phone, group_id, "Museum")
    assert (museum["currency"], museum["exchangeRate"], museum["groupAmount"]) == ("USD", "0.9", 1800)
