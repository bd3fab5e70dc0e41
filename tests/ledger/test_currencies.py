"""Expenses and settlements in any currency: converted at a recorded rate, or kept.

Through the REST API of a EUR group: the reply fields, the per-currency balances (one read,
each currency summing to 0), the rules for rates (decimal strings, groupAmount agreeing)
and an edit keeping the recorded rate."""
from __future__ import annotations

from tests.ledger.helpers import assert_balance_matches_rows, equal_body


def _body(group, amount, **extra):
    return {**equal_body(group.me, amount, group.everyone), **extra}


def _nets(section):
    return {row["participantId"]: row["net"] for row in section["balances"] if row["net"]}


def test_a_converted_expense_records_its_rate_and_counts_in_the_main_currency(group):
    reply = group.post("/expenses", _body(group, 10000, currency="USD", exchangeRate="0.9"))
    assert reply.status_code == 201, reply.get_json()
    made = reply.get_json()
    assert (made["currency"], made["exchangeRate"], made["rateSource"], made["groupAmount"]) \
        == ("USD", "0.9", "CLIENT", 9000)
    assert made["payments"][0]["groupAmount"] == 9000
    owed = [s["groupAmount"] for s in made["items"][0]["splits"]]
    assert sum(owed) == 9000 and owed == [3001, 3000, 2999]  # 3334:3333:3333 of 9000
    balances = group.get("/balances").get_json()
    assert _nets(balances) == {group.me: 5999, group.guests[0]: -3000, group.guests[1]: -2999}
    assert balances["otherCurrencies"] == []
    assert_balance_matches_rows(group.group_id)


def test_exponents_differ_jpy_to_eur_and_kwd(group):
    made = group.post("/expenses", _body(group, 1000, currency="JPY",
                                         exchangeRate="0.0061")).get_json()
    assert made["groupAmount"] == 610  # 1000 yen * 0.0061 = 6.10 EUR
    made = group.post("/expenses", _body(group, 1001, currency="KWD",
                                         exchangeRate="3.005")).get_json()
    assert made["groupAmount"] == 301  # 1.001 KWD * 3.005 = 3.008005 EUR -> 3.01 (half-even)
    assert_balance_matches_rows(group.group_id)


def test_group_amount_alone_derives_the_rate_and_a_disagreeing_one_is_refused(group):
    made = group.post("/expenses", _body(group, 3000, currency="USD",
                                         groupAmount=2777)).get_json()
    assert (made["rateSource"], made["groupAmount"], made["exchangeRate"]) == \
        ("DERIVED", 2777, "0.925666666667")
    wrong = group.post("/expenses", _body(group, 3000, currency="USD", exchangeRate="0.9",
                                          groupAmount=2777))
    assert wrong.status_code == 400 and "groupAmount" in wrong.get_json()["error"]["details"]
    agreeing = group.post("/expenses", _body(group, 3000, currency="USD", exchangeRate="0.9",
                                             groupAmount=2700))
    assert agreeing.status_code == 201


def test_a_rate_is_a_decimal_string_never_a_number(group):
    for rate in (0.9, "0", "-1", "1e3", "1.0000000000001", "abc", "", True):
        reply = group.post("/expenses", _body(group, 100, currency="USD", exchangeRate=rate))
        assert reply.status_code == 400, rate
    same = group.post("/expenses", _body(group, 100, currency="EUR", exchangeRate="1"))
    assert same.status_code == 400  # a rate with the group's own currency
    assert group.post("/expenses", _body(group, 100, currency="XYZ")).status_code == 400


def test_kept_rows_have_their_own_balances_and_settle_up_plan(group):
    group.post("/expenses", _body(group, 3000, currency="USD"))
    group.post("/expenses", _body(group, 900, currency="JPY"))
    settled = group.post("/settlements", {"payerId": group.guests[0], "payeeId": group.me,
                                          "amount": 1000, "currency": "USD"})
    assert settled.status_code == 201 and settled.get_json()["currency"] == "USD"
    reply = group.get("/balances").get_json()
    assert _nets(reply) == {}
    sections = {s["currency"]: s for s in reply["otherCurrencies"]}
    assert set(sections) == {"JPY", "USD"}
    assert _nets(sections["USD"]) == {group.me: 1000, group.guests[1]: -1000}
    assert sections["USD"]["transfers"] == [{"fromParticipantId": group.guests[1],
                                             "toParticipantId": group.me, "amount": 1000,
                                             "payTo": []}]
    assert sum(_nets(sections["JPY"]).values()) == 0
    home = group.client.get("/users/me/groups", headers=group.headers).get_json()["items"][0]
    assert home["myNet"] == 0
    assert home["myOtherNets"] == [{"currency": "JPY", "net": 600},
                                   {"currency": "USD", "net": 1000}]
    assert_balance_matches_rows(group.group_id)


def test_an_edit_keeps_the_recorded_rate_unless_it_sends_one(group):
    made = group.post("/expenses", _body(group, 10000, currency="USD",
                                         exchangeRate="0.9")).get_json()
    path = f"/expenses/{made['expenseId']}"
    edited = group.patch(path, {"version": 1, "amount": 2000, "payments": [
        {"participantId": group.me, "amount": 2000}]}).get_json()
    assert (edited["exchangeRate"], edited["groupAmount"]) == ("0.9", 1800)
    edited = group.patch(path, {"version": 2, "exchangeRate": "0.5"}).get_json()
    assert (edited["exchangeRate"], edited["groupAmount"]) == ("0.5", 1000)
    kept = group.patch(path, {"version": 3, "exchangeRate": None}).get_json()
    assert "exchangeRate" not in kept and kept["currency"] == "USD"
    assert_balance_matches_rows(group.group_id)
    group.delete(path)
    assert_balance_matches_rows(group.group_id)


def test_a_converted_settlement_counts_at_its_group_amount(group):
    group.add_expense(900)
    made = group.post("/settlements", {"payerId": group.guests[0], "payeeId": group.me,
                                       "amount": 330, "currency": "USD",
                                       "exchangeRate": "0.9"}).get_json()
    assert (made["groupAmount"], made["rateSource"]) == (297, "CLIENT")
    assert _nets(group.get("/balances").get_json())[group.guests[0]] == -300 + 297
    edited = group.patch(f"/settlements/{made['settlementId']}",
                         {"version": 1, "amount": 300}).get_json()
    assert edited["groupAmount"] == 270
    assert_balance_matches_rows(group.group_id)


def test_auto_takes_the_ecb_rate_of_the_date_and_says_which_day(group):
    # 2024-12-25 (Christmas) and 2024-12-26 are TARGET holidays: the 24th's rates apply.
    made = group.post("/expenses", _body(group, 10000, currency="USD", exchangeRate="auto",
                                         date="2024-12-25")).get_json()
    assert (made["rateSource"], made["rateDate"]) == ("ECB", "2024-12-24")
    assert made["exchangeRate"] == "0.962000962001"  # 1 / 1.0395, 12 significant digits
    assert made["groupAmount"] == 9620
    refused = group.post("/expenses", _body(group, 100, currency="USD", exchangeRate="auto",
                                            date="1998-12-31"))
    assert refused.status_code == 422
    assert refused.get_json()["error"]["code"] == "RATE_UNAVAILABLE"
    unpublished = group.post("/expenses", _body(group, 100, currency="VND",
                                                exchangeRate="auto"))
    assert unpublished.get_json()["error"]["code"] == "RATE_UNAVAILABLE"


def test_a_conversion_moves_a_kept_currency_into_the_main_one(group):
    group.post("/expenses", _body(group, 3000, currency="USD"))
    reply = group.post("/conversions", {"currency": "USD", "exchangeRate": "0.9"})
    assert reply.status_code == 201, reply.get_json()
    made = reply.get_json()
    assert made["keptNets"] == {group.me: 2000, group.guests[0]: -1000, group.guests[1]: -1000}
    assert made["groupNets"] == {group.me: 1800, group.guests[0]: -900, group.guests[1]: -900}
    balances = group.get("/balances").get_json()
    assert balances["otherCurrencies"] == []
    assert _nets(balances) == made["groupNets"]
    listed = group.get("/conversions").get_json()["items"]
    assert [c["conversionId"] for c in listed] == [made["conversionId"]]
    assert group.post("/conversions", {"currency": "USD",
                                       "exchangeRate": "0.9"}).status_code == 400
    export = group.get("/export?format=csv").get_data(as_text=True)
    assert "Conversion USD to EUR" in export and "Exchange rate" in export
    assert_balance_matches_rows(group.group_id)


def test_display_currency_shows_the_main_nets_elsewhere_summing_to_zero(group):
    group.add_expense(1000)
    reply = group.get("/balances?displayCurrency=JPY").get_json()
    shown = reply["display"]
    assert shown["currency"] == "JPY" and shown["rateDate"] <= "2026-12-01"
    assert sum(row["net"] for row in shown["balances"]) == 0
    assert len(shown["transfers"]) == 2
    assert "display" not in group.get("/balances").get_json()


def test_fx_rates_fall_back_on_weekends_and_refuse_before_the_first_day(group):
    saturday = group.client.get("/fx/rates?base=USD&date=2024-06-15",
                                headers=group.headers).get_json()
    assert (saturday["date"], saturday["requestedDate"], saturday["source"]) == \
        ("2024-06-14", "2024-06-15", "ECB")
    assert saturday["rates"]["EUR"] == "0.935803855512"  # a string, never a JSON number
    before = group.client.get("/fx/rates?date=1998-12-31", headers=group.headers)
    assert before.status_code == 422 and before.get_json()["error"]["code"] == "RATE_UNAVAILABLE"
