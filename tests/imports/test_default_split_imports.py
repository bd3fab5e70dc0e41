"""Imports and the group's defaultSplit (issue 45, Deliver 3): a row whose source names
nobody to share it takes the group's default split as a REST create does, through the real
import path (POST /imports, the worker, the flip). Of the formats, only our own export can
carry such a row and a default: Splitwise's rows are per-member cells, Spliit's `paidFor`,
ihatemoney's and Cospend's `owers` always name everyone who shares (a Cospend bill without
owers is refused, an ihatemoney one skipped: tests/imports/test_formats.py), and none of
those files holds a group default. The imported group keeps the file's default, so a create
naming nobody in it is shared the same way."""
from __future__ import annotations

import json

import pytest

MEMBERS = [("a", "Ana"), ("b", "Ben"), ("c", "Cai")]


def _file(default, expenses, recurring=()) -> str:
    return json.dumps({
        "group": {"name": "Flat", "currency": "EUR", "defaultSplit": default},
        "participants": [{"participantId": key, "displayName": name} for key, name in MEMBERS],
        "expenses": list(expenses), "settlements": [], "recurring": list(recurring)})


def _named_nobody(amount, payer="a", **extra) -> dict:
    return {"description": "Rent", "date": "2026-11-02", "amount": amount,
            "payments": [{"participantId": payer, "amount": amount}], **extra}


def _default(mode, values) -> dict:
    return {"splitMode": mode, "splits": [
        {"participantId": key} if value is None else {"participantId": key, "value": value}
        for key, value in values]}


def _owed(client, headers, group_id) -> list:
    items = client.get(f"/groups/{group_id}/expenses", headers=headers).get_json()["items"]
    return [[(s["participantId"], s["amount"]) for item in e["items"] for s in item["splits"]]
            for e in sorted(items, key=lambda e: e["createdAt"])]


def _names(client, headers, group_id) -> dict:
    reply = client.get(f"/groups/{group_id}/participants", headers=headers).get_json()
    return {p["participantId"]: p["displayName"] for p in reply["items"]}


@pytest.mark.parametrize("mode, values, owed", [
    ("SHARES", [("a", 1), ("b", 2), ("c", 3)], {"Ana": 100, "Ben": 200, "Cai": 300}),
    ("PERCENT", [("a", 5000), ("c", 5000)], {"Ana": 300, "Cai": 300}),
    ("EQUAL", [("b", None), ("c", None)], {"Ben": 300, "Cai": 300}),
])
def test_a_row_that_names_nobody_is_shared_by_the_files_default(importer, client, mode,
                                                                  values, owed):
    status = importer.run("tailspend-json", _file(_default(mode, values),
                                                  [_named_nobody(600)]), me="Ana")
    assert status["status"] == "DONE", status
    group_id = status["groupId"]
    names = _names(client, importer.headers, group_id)
    [row] = _owed(client, importer.headers, group_id)
    assert {names[pid]: amount for pid, amount in row} == owed
    expected = {name: -share for name, share in owed.items()}
    expected["Ana"] = expected.get("Ana", 0) + 600
    assert importer.nets(group_id) == {name: expected.get(name, 0) for name in names.values()}
    # the new group keeps the default, by its new participant ids
    shown = client.get(f"/groups/{group_id}", headers=importer.headers).get_json()
    by_name = {name: pid for pid, name in names.items()}
    assert shown["defaultSplit"] == {"splitMode": mode, "splits": [
        {"participantId": by_name[dict(MEMBERS)[key]], "value": value} for key, value in values]}


def test_income_and_extras_that_name_nobody_are_shared_like_a_rest_create(importer, client):
    """A tip (extras) is shared in proportion to the default's item shares; an income named
    nobody moves every net the other way; the same bodies sent to REST in the imported
    group give the same owed amounts."""
    rows = [_named_nobody(660, extras=[{"name": "Tip", "amount": 60}]),
            _named_nobody(300, payer="b", kind="INCOME")]
    status = importer.run("tailspend-json", _file(_default("SHARES", [("a", 1), ("b", 2),
                                                                      ("c", 3)]), rows),
                          me="Ana")
    assert status["status"] == "DONE", status
    group_id, headers = status["groupId"], importer.headers
    names = _names(client, headers, group_id)
    by_name = {name: pid for pid, name in names.items()}
    # Rent: 600 shared 1:2:3 and a 60 tip in proportion (10, 20, 30): Ana paid 660.
    # Deposit back: Ben received 300, which is 50, 100, 150 of the three.
    assert importer.nets(group_id) == {"Ana": 660 - 110 + 50, "Ben": -220 - 300 + 100,
                                       "Cai": -330 + 150}
    reply = client.get(f"/groups/{group_id}/expenses", headers=headers).get_json()["items"]
    tipped = next(e for e in reply if e.get("extras"))
    assert tipped["amount"] == 660
    assert [(names[s["participantId"]], s["amount"]) for s in tipped["extras"][0]["shares"]] == [
        ("Ana", 10), ("Ben", 20), ("Cai", 30)]
    # the same body through REST in the imported group: the same owed amounts
    imported_owed = _owed(client, headers, group_id)
    rest = client.post(f"/groups/{group_id}/expenses", headers=headers, json={
        **_named_nobody(660, payer=by_name["Ana"]), "extras": [{"name": "Tip", "amount": 60}]})
    assert rest.status_code == 201, rest.get_json()
    assert _owed(client, headers, group_id)[-1] in imported_owed


def test_export_then_import_keeps_the_default_and_the_rows(importer, client):
    h = importer.headers
    group = client.post("/groups", json={"name": "Trip", "currency": "EUR"}, headers=h).get_json()
    base, me = f"/groups/{group['groupId']}", group["myParticipantId"]
    guest = client.post(f"{base}/participants", json={"displayName": "Bo"},
                        headers=h).get_json()["participantId"]
    default = _default("PERCENT", [(me, 2500), (guest, 7500)])
    assert client.patch(base, json={"defaultSplit": default}, headers=h).status_code == 200
    assert client.post(f"{base}/expenses", json=_named_nobody(1000, payer=me),
                       headers=h).status_code == 201
    exported = client.get(f"{base}/export?format=json", headers=h).get_data(as_text=True)
    status = importer.run("tailspend-json", exported, me=me)
    assert status["status"] == "DONE", status
    names = _names(client, h, status["groupId"])
    by_name = {name: pid for pid, name in names.items()}
    back = client.get(f"/groups/{status['groupId']}", headers=h).get_json()["defaultSplit"]
    assert back == _default("PERCENT", [(by_name["Ima Porter"], 2500), (by_name["Bo"], 7500)])
    assert importer.nets(status["groupId"]) == importer.nets(group["groupId"])


def test_a_row_that_names_nobody_without_a_default_is_a_400_naming_its_record(importer):
    reply = importer.start("tailspend-json", _file(None, [
        {**_named_nobody(500), "splitMode": "EQUAL",
         "splits": [{"participantId": "a"}, {"participantId": "b"}]},
        _named_nobody(600)]))
    assert reply.status_code == 400, reply.get_json()
    error = reply.get_json()["error"]
    assert error["details"]["line"] == 2
    assert "defaultSplit" in error["details"]["content"][0]


def test_a_files_default_naming_a_stranger_is_a_400(importer):
    reply = importer.start("tailspend-json", _file(_default("EQUAL", [("a", None), ("zed", None)]),
                                                   [_named_nobody(600)]))
    assert reply.status_code == 400, reply.get_json()
    assert "zed" in reply.get_json()["error"]["details"]["content"][0]
