"""The web app's activity and stats screens (issue 49, docs/web.md): what happened in a group,
newest first with an edit's before and after, and the group's stats as a bar chart with its
numbers in a table; both load their code only when opened (the first screen's budget)."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import call
from tests.web.test_web_app import add_expense, create_group, sign_in


def test_activity_lists_changes_and_stats_chart_the_group_s_spending(phones):
    phone = phones()
    page = phone.page
    scripts: list[str] = []
    page.on("response", lambda r: scripts.append(r.url) if r.request.resource_type == "script" else None)
    sign_in(phone, "Ann")
    group_id = create_group(phone, "Porto", guests=("Bo",))
    page.get_by_role("link", name="Expenses").click()
    add_expense(page, "Pizza", "30.00")
    expect(page.get_by_role("link", name="Edit Pizza")).to_be_visible()
    page.get_by_role("link", name="Edit Pizza").click()
    page.get_by_label("Amount").fill("36.00")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Ann paid €36.00")).to_be_visible()
    assert not [url for url in scripts if "/Insights-" in url]  # not loaded until opened

    page.get_by_role("link", name="Activity").click()
    activity = page.get_by_role("list", name="Activity")
    expect(activity.get_by_role("listitem").first).to_contain_text("Pizza")
    expect(activity).to_contain_text("added Pizza")
    expect(activity).to_contain_text("amount: €30.00 → €36.00")  # the edit, before and after
    expect(activity).to_contain_text("payments changed")
    assert [url for url in scripts if "/Insights-" in url]
    phone.assert_accessible("activity")
    phone.shot("activity")

    page.get_by_role("link", name="Stats").click()
    chart = page.get_by_role("img", name="Spent and paid in EUR (total spent €36.00)")
    expect(chart).to_be_visible()
    table = page.get_by_role("table", name="Spent and paid in EUR (total spent €36.00)")
    rows = table.get_by_role("row")
    expect(rows).to_have_text(["Who or whatSpentPaid", "Ann€18.00€36.00", "Bo€18.00€0.00"])
    # The bars are drawn to scale: Ann's payment is the widest, twice her share.
    widths = chart.evaluate("svg => [...svg.querySelectorAll('rect')].map(r => r.getAttribute('width'))")
    assert [int(w) for w in widths] == [125, 250, 125, 0]
    phone.assert_accessible("stats")
    phone.shot("stats")

    page.get_by_label("Group by").select_option("month")
    _, stats = call(phone.url, "GET", f"/groups/{group_id}/stats?by=month", phone.token())
    [month] = stats["rows"]
    assert month["spent"] == 3600
    year, number = map(int, month["key"].split("-"))
    name = page.evaluate("([y, m]) => new Intl.DateTimeFormat('en-US', {month: 'short', year: 'numeric',"
                         " timeZone: 'UTC'}).format(new Date(Date.UTC(y, m - 1, 1)))", [year, number])
    expect(table.get_by_role("row")).to_have_text(["Who or whatSpentPaid", f"{name}€36.00€36.00"])
