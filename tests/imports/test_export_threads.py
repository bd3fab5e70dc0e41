"""The JSON export carries every expense's comments and every recurring template, as the
served document says, and the tailspend-json import brings them back (issue 31 section 2;
the random groups are in test_roundtrip_property.py)."""
from __future__ import annotations

import json

from app.imports import run_import
from models.groups import RECURRING_PREFIX, ImportJob, RecurringExpense
from tests.contract.strict_document import reply_problems, strict_document


def _group(importer) -> tuple:
    post, h = importer.client.post, importer.headers
    group = post("/groups", json={"name": "Flat", "currency": "EUR"}, headers=h).get_json()
    base, me = f"/groups/{group['groupId']}", group["myParticipantId"]
    bo = post(f"{base}/participants", json={"displayName": "Bo"}, headers=h).get_json()[
        "participantId"]
    expense = post(f"{base}/expenses", json={
        "description": "Pizza", "date": "2026-02-01", "amount": 3000, "splitMode": "EQUAL",
        "payments": [{"participantId": me, "amount": 3000}],
        "splits": [{"participantId": me}, {"participantId": bo}]}, headers=h).get_json()
    for text in ("Thanks!", "Next one is on me"):
        assert post(f"{base}/expenses/{expense['expenseId']}/comments", json={"body": text},
                    headers=h).status_code == 201
    assert post(f"{base}/recurring", json={
        "description": "Rent", "amount": 90000, "splitMode": "SHARES", "frequency": "MONTHLY",
        "startDate": "2027-01-01", "payments": [{"participantId": bo, "amount": 90000}],
        "splits": [{"participantId": me, "value": 2}, {"participantId": bo, "value": 1}]},
        headers=h).status_code == 201
    return group["groupId"], base


def test_the_json_export_has_comments_and_templates_as_documented(importer, client):
    group_id, base = _group(importer)
    reply = client.get(f"{base}/export?format=json", headers=importer.headers)
    document = strict_document(client.get("/openapi.json").get_json())
    assert reply_problems(document, "/groups/{groupId}/export", "GET", 200,
                          reply.content_type, reply.get_json()) == []
    served = client.get("/openapi.json").get_json()
    schema = served["paths"]["/groups/{groupId}/export"]["get"]["responses"]["200"][
        "content"]["application/json"]["schema"]
    component = served["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    assert {"comments", "recurring", "participants", "expenses"} <= set(component["properties"])
    exported = reply.get_json()
    assert [c["body"] for c in exported["comments"]] == ["Thanks!", "Next one is on me"]
    assert [(t["description"], t["frequency"], t["nextDate"]) for t in exported["recurring"]] \
        == [("Rent", "MONTHLY", "2027-01-01")]


def test_imported_templates_are_filed_for_the_tick_after_the_flip(importer, client):
    group_id, base = _group(importer)
    text = client.get(f"{base}/export?format=json", headers=importer.headers).get_data(
        as_text=True)
    status = importer.run("tailspend-json", text, me="Ima Porter")
    assert status["status"] == "DONE", status
    copy = status["groupId"]
    (row,) = RecurringExpense.query(copy, RecurringExpense.SK.startswith(RECURRING_PREFIX))
    assert row.DueBucket == RecurringExpense.bucket_of(copy)
    assert row.NextRunAt == "2027-01-01T00:00:00.000Z" and row.NextSlot == "2027-01-01"
    # A run that died between the flip and the filing: its redelivery files the template.
    row.update(actions=RecurringExpense.due_actions(copy, None))
    job = ImportJob.get(*ImportJob.key(copy))
    assert run_import.run_import(copy, job.ImportId) == "DONE"
    (row,) = RecurringExpense.query(copy, RecurringExpense.SK.startswith(RECURRING_PREFIX))
    assert row.DueBucket == RecurringExpense.bucket_of(copy)


def test_a_comment_naming_no_exported_expense_is_a_400_naming_it(importer, client):
    group_id, base = _group(importer)
    exported = client.get(f"{base}/export?format=json", headers=importer.headers).get_json()
    exported["comments"][1]["expenseId"] = "not-an-expense"
    reply = importer.start("tailspend-json", json.dumps(exported))
    assert reply.status_code == 400
    assert reply.get_json()["error"]["details"]["line"] == 2
    exported = client.get(f"{base}/export?format=json", headers=importer.headers).get_json()
    exported["recurring"][0]["frequency"] = "HOURLY"
    reply = importer.start("tailspend-json", json.dumps(exported))
    assert reply.status_code == 400, reply.get_json()
    assert "frequency" in reply.get_json()["error"]["message"]


def test_converted_rows_come_back_at_their_rate_and_group_amount(importer, client):
    post, h = client.post, importer.headers
    group = post("/groups", json={"name": "Abroad", "currency": "EUR"}, headers=h).get_json()
    base, me = f"/groups/{group['groupId']}", group["myParticipantId"]
    bo = post(f"{base}/participants", json={"displayName": "Bo"}, headers=h).get_json()[
        "participantId"]
    assert post(f"{base}/expenses", json={
        "description": "Museum", "date": "2026-02-01", "amount": 1001, "currency": "USD",
        "exchangeRate": "0.9213", "splitMode": "EQUAL",
        "payments": [{"participantId": me, "amount": 1001}],
        "splits": [{"participantId": me}, {"participantId": bo}]}, headers=h).status_code == 201
    assert post(f"{base}/settlements", json={
        "payerId": bo, "payeeId": me, "amount": 500, "currency": "USD", "groupAmount": 461,
        "date": "2026-02-02"}, headers=h).status_code == 201
    exported = client.get(f"{base}/export?format=json", headers=h)
    status = importer.run("tailspend-json", exported.get_data(as_text=True), me="Ima Porter")
    assert status["status"] == "DONE", status
    copy = importer.export(status["groupId"])
    (expense,), (settlement,) = copy["expenses"], copy["settlements"]
    original = exported.get_json()

    def money(row: dict) -> tuple:
        return (row["currency"], row["amount"], row["groupAmount"], row["exchangeRate"])

    assert money(expense) == money(original["expenses"][0]) == ("USD", 1001, 922, "0.9213")
    def shares(row: dict) -> list:
        return [(s["amount"], s["groupAmount"]) for i in row["items"] for s in i["splits"]]

    assert shares(expense) == shares(original["expenses"][0])
    assert money(settlement) == money(original["settlements"][0])
    assert importer.nets(status["groupId"]) == importer.nets(group["groupId"])
