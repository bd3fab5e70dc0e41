"""Spliit expenses entered in another currency (issue 31 section 2): converted rows in the
currency spent, at the rate Spliit recorded, their group amount Spliit's ``amount``, so the
balances are Spliit's to the cent. The fixture is written by spliit_currencies.mjs the way
Spliit's expense form and JSON export make such rows."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from app.money import fx
from app.imports.formats.spliit_currency import original_splits
from app.imports.parse import parse_file
from tests.imports.conftest import fixture_text

# Printed by spliit_currencies.mjs: getBalances' rule over getExpenseShares (edcf11e).
SPLIIT_BALANCES = {"Aiko": 26036, "Ben": -22537, "Chiara": -6239, "Dae-jung": 2740}


@pytest.mark.parametrize("file_format, name, warned", [
    ("spliit-json", "spliit_currencies.json", []),
    # The CSV cannot name the payer when the payer's own share is 0 (warned, lines 5, 8).
    ("spliit-csv", "spliit_currencies.csv", [5, 8])])
def test_foreign_expenses_import_converted_at_spliits_rate_with_spliits_balances(
        importer, file_format, name, warned):
    status = importer.run(file_format, fixture_text(name), me="Aiko")
    assert status["status"] == "DONE", status
    assert [w["line"] for w in status["warnings"]] == warned
    assert importer.nets(status["groupId"]) == SPLIIT_BALANCES
    text = fixture_text("spliit_currencies.json")

    source = {e["title"]: e for e in json.loads(text)["expenses"]}
    export = importer.export(status["groupId"])
    assert export["group"]["currency"] == "EUR"
    expenses = {e["description"]: e for e in export["expenses"]}
    for title, spliit in source.items():
        if spliit["isReimbursement"]:
            continue
        ours = expenses[title]
        if spliit["originalCurrency"] is None:
            assert ours["currency"] == "EUR" and ours["amount"] == spliit["amount"]
            continue
        assert (ours["currency"], ours["amount"]) == (spliit["originalCurrency"],
                                                      spliit["originalAmount"]), title
        assert ours["groupAmount"] == spliit["amount"], title
        assert (ours["exchangeRate"], ours["rateSource"]) == (spliit["conversionRate"], "CLIENT")
    (repaid,) = export["settlements"]
    spliit = source["Ben pays Aiko back"]
    assert (repaid["currency"], repaid["amount"], repaid["groupAmount"]) == (
        "GBP", spliit["originalAmount"], spliit["amount"])
    assert repaid["exchangeRate"] == "1.1723"


def _document(group_code: str, original: int, original_code: str, amount: int,
              members: int) -> str:
    people = [{"id": f"p{i}", "name": f"M{i}"} for i in range(members)]
    return json.dumps({"id": "g", "name": "Coarse", "currency": "x", "currencyCode": group_code,
                       "participants": people, "expenses": [{
                           "id": "e1", "expenseDate": "2026-04-01T00:00:00.000Z",
                           "title": "Dinner", "category": None, "amount": amount,
                           "originalAmount": original, "originalCurrency": original_code,
                           "conversionRate": "1350", "paidById": "p0",
                           "paidFor": [{"participantId": p["id"], "shares": 1} for p in people],
                           "isReimbursement": False, "splitMode": "EVENLY"}]})


def test_an_original_amount_too_coarse_for_spliits_shares_stays_in_the_group_currency():
    # 0.10 USD is 135 KRW in Spliit's books, split 34/34/34/33 among four: ten cents cannot
    # be cut so that converting every share gives those.
    parsed = parse_file("spliit-json", _document("KRW", 10, "USD", 135, 4))
    (row,) = parsed.rows
    assert row.currency == "KRW" and row.recorded_rate is None and row.total == 135
    assert [line for line, _ in parsed.warnings] == [1]
    assert "0.10 USD cannot be split in whole units" in parsed.warnings[0][1]


def test_a_spliit_file_converted_into_another_main_currency_keeps_the_original():
    # The request names another main currency: Spliit's EUR amounts do not convert into it.
    parsed = parse_file("spliit-json", _document("KRW", 1000, "USD", 13500, 2),
                        currency="USD")
    (row,) = parsed.rows
    assert row.currency == "USD" and row.recorded_rate.currency == "KRW"


@settings(max_examples=300, deadline=None)
@given(original=st.integers(1, 10**7), group_amount=st.integers(1, 10**7),
       weights=st.lists(st.integers(1, 5), min_size=1, max_size=8))
def test_original_splits_apportion_back_to_every_share(original, group_amount, weights):
    shares = fx.apportion_amounts(group_amount, weights)
    wanted = [(f"p{i}", s) for i, s in enumerate(shares)]
    got = original_splits(original, group_amount, wanted)
    if group_amount <= original:  # a split always exists then
        assert got is not None
    if got is not None:
        assert sum(v for _, v in got) == original and all(v > 0 for _, v in got)
        back = dict(zip([k for k, _ in got], fx.apportion_amounts(
            group_amount, [v for _, v in got]), strict=True))
        assert back == {k: s for k, s in wanted if s > 0}
