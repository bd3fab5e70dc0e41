"""Export: Splitwise-shaped CSV with formula-injection escaping, and the whole group as JSON."""
from __future__ import annotations

import csv
import io

from app.money.currencies import format_minor
from app.imports.export import safe_cell
from tests.ledger.conftest import make_group_ctx


def _csv(ctx):
    reply = ctx.get("/export?format=csv")
    assert reply.status_code == 200
    assert reply.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(reply.get_data(as_text=True))))


def test_csv_has_a_row_per_expense_and_settlement_and_a_total_that_matches_balances(group):
    group.add_expense(900, date="2026-01-01", description="Dinner")
    group.post("/settlements", {"payerId": group.guests[0], "payeeId": group.me,
                                "amount": 300, "date": "2026-01-02"})
    rows = _csv(group)
    header = rows[0]
    assert header[:5] == ["Date", "Description", "Category", "Cost", "Currency"]
    # (issue 24: who paid, and each participant's paid and owed, follow the net columns)
    assert sorted(header[5:8]) == ["Guest 0", "Guest 1", "owner"]
    column = {name: index for index, name in enumerate(header)}
    dinner, payment, blank, total = rows[1:]
    assert dinner[:5] == ["2026-01-01", "Dinner", "General", "9.00", "EUR"]
    assert dinner[column["owner"]] == "6.00" and dinner[column["Guest 0"]] == "-3.00"
    assert payment[1:5] == ["Guest 0 paid owner", "Payment", "3.00", "EUR"]
    assert payment[column["Guest 0"]] == "3.00" and payment[column["owner"]] == "-3.00"
    assert blank == []
    assert total[1] == "Total balance"
    balances = {row["displayName"]: row["net"] for row in group.get("/balances").get_json()[
        "balances"]}
    assert {name: total[column[name]] for name in balances} == {
        name: format_minor(net, "EUR") for name, net in balances.items()}


def test_cells_that_could_run_as_formulas_are_escaped(group):
    for text in ("=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"):
        group.add_expense(100, description=text)
    descriptions = [row[1] for row in _csv(group)[1:-2]]
    assert sorted(descriptions) == sorted(["'=HYPERLINK(\"http://x\")", "'+1+1", "'-2+3",
                                           "'@SUM(A1)", "'\tx", "'\rx"])


def test_plain_numbers_stay_numbers():
    assert safe_cell("-12.50") == "-12.50"
    assert safe_cell("-1-1") == "'-1-1"
    assert safe_cell("Dinner") == "Dinner"


def test_amounts_use_the_currency_exponent():
    assert format_minor(4550, "EUR") == "45.50"
    assert format_minor(-5, "EUR") == "-0.05"
    assert format_minor(4550, "JPY") == "4550"
    assert format_minor(4550, "KWD") == "4.550"


def test_json_export_holds_the_whole_group(group):
    expense = group.add_expense(900)
    group.post("/settlements", {"payerId": group.guests[0], "payeeId": group.me, "amount": 300})
    reply = group.get("/export?format=json")
    assert reply.status_code == 200
    body = reply.get_json()
    assert set(body) == {"group", "participants", "expenses", "settlements", "balances",
                         "comments", "recurring"}
    assert body["group"]["groupId"] == group.group_id
    assert [e["expenseId"] for e in body["expenses"]] == [expense["expenseId"]]
    assert len(body["settlements"]) == 1 and len(body["participants"]) == 3
    assert body["balances"] == group.get("/balances").get_json()


def test_export_is_404_for_non_members_and_400_for_unknown_formats(group, client, sign_in):
    outsider, _ = sign_in("outsider@example.com")
    assert client.get(f"{group.base}/export", headers=outsider).status_code == 404
    assert group.get("/export?format=xlsx").status_code == 400


def test_participants_with_the_same_name_get_distinct_columns(client, sign_in):
    ctx = make_group_ctx(client, sign_in, "dup@example.com", guests=0)
    for _ in range(2):
        ctx.client.post(f"{ctx.base}/participants", json={"displayName": "Sam"},
                        headers=ctx.headers)
    header = _csv(ctx)[0]
    # (issue 24: the paid/owed columns follow the 3 net columns and "Paid by")
    assert len(set(header)) == len(header) == 5 + 3 + 1 + 2 * 3 + 1  # and Kind


def test_csv_shows_who_paid_and_each_participants_paid_and_owed(group):
    body = {"description": "Hotel", "date": "2026-01-03",
            "payments": [{"participantId": group.me, "amount": 600},
                         {"participantId": group.guests[0], "amount": 300}],
            "amount": 900, "splitMode": "EQUAL",
            "splits": [{"participantId": pid} for pid in group.everyone]}
    assert group.post("/expenses", body).status_code == 201
    group.post("/settlements", {"payerId": group.guests[1], "payeeId": group.me,
                                "amount": 300, "date": "2026-01-04"})
    header, hotel, payment, _, total = _csv(group)
    column = {name: index for index, name in enumerate(header)}
    assert hotel[column["Paid by"]] == "owner; Guest 0"
    assert [hotel[column[f"owner {what}"]] for what in ("paid", "owed")] == ["6.00", "3.00"]
    assert [hotel[column[f"Guest 1 {what}"]] for what in ("paid", "owed")] == ["0.00", "3.00"]
    assert payment[column["Paid by"]] == "Guest 1"
    assert payment[column["Guest 1 paid"]] == "3.00" and payment[column["owner owed"]] == "3.00"
    for row in (hotel, payment, total):  # every row, the totals too: paid - owed = net
        for name in ("owner", "Guest 0", "Guest 1"):
            paid, owed = (int(row[column[f"{name} {w}"]].replace(".", "")) for w in ("paid", "owed"))
            assert paid - owed == int(row[column[name]].replace(".", "")), (row, name)


def test_names_in_the_payer_and_paid_owed_columns_are_escaped_too(client, sign_in):
    ctx = make_group_ctx(client, sign_in, "formula@example.com", guests=0)
    guest = ctx.client.post(f"{ctx.base}/participants", json={"displayName": "=cmd|x"},
                            headers=ctx.headers).get_json()["participantId"]
    ctx.add_expense(200, payer=guest, among=[guest, ctx.me])
    header, row, *_ = _csv(ctx)
    assert "'=cmd|x" in header and "'=cmd|x paid" in header
    assert row[header.index("Paid by")] == "'=cmd|x"
