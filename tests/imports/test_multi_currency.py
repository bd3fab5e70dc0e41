"""Rows in other currencies: kept (each Total balance row matches) or converted at each row's
ECB rate (convert: "auto")."""
from __future__ import annotations

import csv
import io
from decimal import Decimal


from app.money.currencies import MINOR_UNITS
from tests.imports.conftest import fixture_text



def _totals(text: str) -> dict:
    """currency -> name -> minor units, from the file's own Total balance rows."""
    rows = [r for r in csv.reader(io.StringIO(text)) if len(r) > 5]
    header = rows[0]
    found = {}
    for row in rows[1:]:
        if not row[2].strip() and not row[3].strip():
            scale = Decimal(10) ** MINOR_UNITS[row[4]]
            found[row[4]] = {name: int(Decimal(cell) * scale)
                             for name, cell in zip(header[5:], row[5:], strict=True)}
    return found


def test_rows_in_other_currencies_are_kept_and_every_total_balance_row_matches(importer):
    text = fixture_text("splitwise_multicurrency.csv")
    status = importer.run("splitwise-csv", text, me="Ana")

    assert status["status"] == "DONE" and status["warnings"] == []
    assert status["counts"]["skipped"] == 0
    reply = importer.client.get(f"/groups/{status['groupId']}/balances",
                                headers=importer.headers).get_json()
    names = {row["participantId"]: row["displayName"] for row in reply["balances"]}
    seen = {reply["currency"]: {names[r["participantId"]]: r["net"] for r in reply["balances"]}}
    for section in reply["otherCurrencies"]:
        seen[section["currency"]] = {names[r["participantId"]]: r["net"]
                                     for r in section["balances"]}
    for currency, expected in _totals(text).items():
        assert {name: seen[currency].get(name, 0) for name in expected} == expected, currency
    kept = [e for e in importer.export(status["groupId"])["expenses"] if e["currency"] != "EUR"]
    assert {e["currency"] for e in kept} == {"USD", "JPY"}
    assert all("exchangeRate" not in e for e in kept)


def test_convert_auto_converts_each_row_at_its_ecb_rate(importer):
    status = importer.run("splitwise-csv", fixture_text("splitwise_multicurrency.csv"),
                          me="Ana", convert="auto")

    assert status["status"] == "DONE"
    export = importer.export(status["groupId"])
    converted = [e for e in export["expenses"] if e["currency"] != "EUR"]
    assert converted and all(e["rateSource"] == "ECB" and e["rateDate"] <= e["date"]
                             for e in converted)
    for expense in converted:
        assert sum(p["groupAmount"] for p in expense["payments"]) == expense["groupAmount"]
    balances = importer.client.get(f"/groups/{status['groupId']}/balances",
                                   headers=importer.headers).get_json()
    assert balances["otherCurrencies"] == []
    assert sum(row["net"] for row in balances["balances"]) == 0
