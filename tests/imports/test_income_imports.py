"""Income from the peers' files (issue 45): Spliit's negative amounts, ihatemoney's
reimbursement bills to several members and Splitwise's negative rows come in as
``kind: INCOME`` with the source's balances to the cent; our own exports keep ``kind`` on
the way round. Fixtures: spliit_income.mjs (Spliit's own share code and CSV cells),
ihatemoney_refunds.json and splitwise_refund_en.csv (fixtures/README.md)."""
from __future__ import annotations

import json

import pytest

from tests.imports.conftest import fixture_text

# Printed by spliit_income.mjs: getBalances' rule over getExpenseShares (edcf11e).
SPLIIT_BALANCES = {"Aiko": 23281, "Ben": -13057, "Chiara": -10224}


def _kinds(export: dict) -> dict:
    return {e["description"]: e["kind"] for e in export["expenses"]}


@pytest.mark.parametrize("file_format, name", [("spliit-json", "spliit_income.json"),
                                               ("spliit-csv", "spliit_income.csv")])
def test_spliits_income_rows_come_in_as_income_with_spliits_balances(importer, file_format,
                                                                     name):
    status = importer.run(file_format, fixture_text(name), me="Aiko")
    assert status["status"] == "DONE", status
    assert importer.nets(status["groupId"]) == SPLIIT_BALANCES
    export = importer.export(status["groupId"])
    assert _kinds(export) == {"Cabin deposit": "EXPENSE", "Deposit back": "INCOME",
                              "Sold the tent": "INCOME", "Tax-free refund": "INCOME"}
    rows = {e["description"]: e for e in export["expenses"]}
    names = {p["participantId"]: p["displayName"] for p in export["participants"]}
    tent = rows["Sold the tent"]
    # Chiara received 40.01; Aiko owns a third and Ben two thirds (Spliit's own shares).
    assert [(names[p["participantId"]], p["amount"]) for p in tent["payments"]] == [
        ("Chiara", 4001)]
    assert sorted((names[s["participantId"]], s["amount"])
                  for s in tent["items"][0]["splits"]) == [("Aiko", 1334), ("Ben", 2667)]
    # Received abroad: kept in JPY at Spliit's rate, its group amount Spliit's.
    refund = rows["Tax-free refund"]
    assert (refund["currency"], refund["amount"], refund["groupAmount"],
            refund["exchangeRate"]) == ("JPY", 3000, 1830, "0.0061")


def test_ihatemoneys_reimbursement_to_several_members_is_an_income(importer):
    text = fixture_text("ihatemoney_refunds.json")
    status = importer.run("ihatemoney-json", text, me="zorglub")
    assert status["status"] == "DONE", status
    # ihatemoney's Project.full_balance: paid - spent + transferred - received.
    assert importer.nets(status["groupId"]) == {"zorglub": 45000, "fred": -17500,
                                                "tata": -27500}
    export = importer.export(status["groupId"])
    assert _kinds(export) == {"Holiday flat": "EXPENSE",
                              "Deposit returned to fred and tata": "INCOME"}
    names = {p["participantId"]: p["displayName"] for p in export["participants"]}
    (income,) = [e for e in export["expenses"] if e["kind"] == "INCOME"]
    assert sorted((names[p["participantId"]], p["amount"]) for p in income["payments"]) == [
        ("fred", 7500), ("tata", 7500)]
    assert [(names[s["participantId"]], s["amount"])
            for s in income["items"][0]["splits"]] == [("zorglub", 15000)]
    # A reimbursement to one member is a settlement, as ihatemoney's settle page makes it.
    assert len(export["settlements"]) == 1
    assert [b["bill_type"] for b in json.loads(text)] == ["Expense", "Reimbursement",
                                                         "Reimbursement"]


def test_a_splitwise_row_with_a_negative_cost_is_an_income(importer):
    status = importer.run("splitwise-csv", fixture_text("splitwise_refund_en.csv"), me="Ann")
    assert status["status"] == "DONE", status
    assert importer.nets(status["groupId"]) == {"Ann": 500, "Bo": 0, "Chloé": -500}
    export = importer.export(status["groupId"])
    assert _kinds(export) == {"Museum tickets": "EXPENSE", "Refund: closed gallery": "INCOME"}
    refund = next(e for e in export["expenses"] if e["kind"] == "INCOME")
    assert refund["amount"] == 3000


def _group_with_income(importer) -> str:
    post = importer.client.post
    group = post("/groups", json={"name": "Round", "currency": "EUR"},
                 headers=importer.headers).get_json()
    me, base = group["myParticipantId"], f"/groups/{group['groupId']}"
    bo = post(f"{base}/participants", json={"displayName": "Bo"},
              headers=importer.headers).get_json()["participantId"]
    for kind, amount, receiver in (("EXPENSE", 900, me), ("INCOME", 601, bo),
                                   ("INCOME", 300, me)):
        reply = post(f"{base}/expenses", json={
            "description": f"{kind} {amount}", "date": "2026-02-01", "kind": kind,
            "amount": amount, "payments": [{"participantId": receiver, "amount": amount}],
            "splitMode": "EQUAL", "splits": [{"participantId": me}, {"participantId": bo}]},
            headers=importer.headers)
        assert reply.status_code == 201, reply.get_json()
    return group["groupId"]


@pytest.mark.parametrize("file_format, export_format", [("tailspend-json", "json"),
                                                       ("splitwise-csv", "csv")])
def test_our_export_round_trip_keeps_kind(importer, file_format, export_format):
    original_id = _group_with_income(importer)
    original = importer.export(original_id)
    text = importer.client.get(f"/groups/{original_id}/export?format={export_format}",
                               headers=importer.headers).get_data(as_text=True)
    me = original["group"]["myParticipantId"] if file_format == "tailspend-json" \
        else "Ima Porter"
    status = importer.run(file_format, text, me=me)
    assert status["status"] == "DONE", status
    copy = importer.export(status["groupId"])
    assert _kinds(copy) == _kinds(original) == {"EXPENSE 900": "EXPENSE",
                                                "INCOME 601": "INCOME", "INCOME 300": "INCOME"}
    assert importer.nets(status["groupId"]) == importer.nets(original_id)
