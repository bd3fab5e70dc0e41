"""All or nothing: a bad file creates nothing, a failed import leaves only its report, and an
import under way is unreadable by every route."""
from __future__ import annotations

import json

import pytest

from app.imports import parse
from app.imports import run_import
from models.groups import GroupItem, Invite
from tests.imports.conftest import all_group_keys, fixture_text, group_rows, user_rows
from tests.support.faults import transaction_dies_at

HEADER = "Date,Description,Category,Cost,Currency,Ann,Bo\r\n"
GOOD = "2026-01-05,Dinner,Dining out,60.00,EUR,30.00,-30.00\r\n"


def _names_nobody(group_id: str, importer) -> bool:
    """An ended import's row keeps neither the importer's id nor their name (account
    deletion leaves no name behind: the pointer in their own partition says whose it is)."""
    text = json.dumps(GroupItem.raw_get(group_id, "IMPORT"))
    return importer.user_id not in text and "Ima Porter" not in text


@pytest.mark.parametrize("content, line, reason", [
    ("Date,Description,Category,Currency,Cost,Ann,Bo\r\n" + GOOD, 1, "Column 4 is 'Currency'"),
    (HEADER + GOOD + "2026-01-06,Taxi,Taxi,twelve,EUR,6.00,-6.00\r\n", 3, "Cost is not a number"),
    (HEADER + GOOD + "\r\n2026-01-07,Taxi,Taxi,12.00,EUR,6.00,-5.00\r\n", 4, "sum to 100"),
    (HEADER + "2026-01-06,Taxi,Taxi,12.00,EUR,6.00\r\n", 2, "has 6 cells"),
    (HEADER + "2026-13-06,Taxi,Taxi,12.00,EUR,6.00,-6.00\r\n", 2, "Not a date"),
])
def test_a_bad_file_is_a_400_naming_its_line_and_creates_nothing(importer, content, line,
                                                                 reason):
    before = all_group_keys()
    reply = importer.start("splitwise-csv", content)

    assert reply.status_code == 400
    error = reply.get_json()["error"]
    assert error["code"] == "VALIDATION_ERROR" and error["details"]["line"] == line
    assert reason in error["details"]["content"][0]
    assert all_group_keys() == before
    assert not any(sk.startswith("IMPORT#") for sk in user_rows(importer.user_id))


def test_a_file_one_byte_past_5_mb_is_a_413_naming_where_it_crosses_and_creates_nothing(
        importer):
    def file_of(size: int) -> str:  # one row whose description fills the file to ``size``
        head, tail = HEADER + '2026-01-05,"Dinner ', '",Dining out,60.00,EUR,30.00,-30.00\r\n'
        return head + "x" * (size - len((head + tail).encode())) + tail

    before = all_group_keys()
    reply = importer.start("splitwise-csv", file_of(parse.MAX_BYTES + 1))

    assert reply.status_code == 413
    assert reply.get_json()["error"]["details"]["line"] == 2
    assert all_group_keys() == before
    assert importer.start("splitwise-csv", file_of(parse.MAX_BYTES)).status_code == 202


def test_bad_rows_of_the_other_formats_name_their_line(importer):
    spliit = json.loads(fixture_text("spliit_lisbon.json"))
    spliit["expenses"][2]["amount"] = 10.5
    cases = [("spliit-json", json.dumps(spliit), 3),
             ("spliit-csv", fixture_text("spliit_lisbon.csv").replace('"10.00"', '"11.00"'), 4),
             ("ihatemoney-csv", fixture_text("ihatemoney_raclette_eur.csv").replace(
                 "13.33", "lots"), 4),
             ("cospend-csv", fixture_text("cospend_weekend.csv").replace(
                 '"Museum",31', '"Museum",3x1'), 9),
             ("tailspend-json", '{"participants": [{"participantId": "a", "displayName": "A"}],'
                                ' "expenses": [{"date": "2026-01-01", "description": "x", '
                                '"payments": [{"participantId": "b", "amount": 5}]}]}', 1)]
    for file_format, content, line in cases:
        reply = importer.start(file_format, content)
        assert reply.status_code == 400, (file_format, reply.get_json())
        assert reply.get_json()["error"]["details"]["line"] == line, file_format


def test_a_failure_in_the_worker_removes_everything_but_the_report(importer):
    before = all_group_keys()
    with transaction_dies_at(2):  # the API's create commits; the worker's flip dies
        reply = importer.start("splitwise-csv", fixture_text("splitwise_group_en.csv"))
    assert reply.status_code == 202
    started = reply.get_json()
    status = importer.status(started["importId"])

    assert status["status"] == "FAILED"
    assert status["error"]["message"].startswith("The import failed on our side")
    assert _names_nobody(started["groupId"], importer)
    assert group_rows(started["groupId"]) == ["IMPORT"]
    assert all_group_keys() - before == {(started["groupId"], "IMPORT")}
    assert importer.client.get(f"/groups/{started['groupId']}",
                               headers=importer.headers).status_code == 404


def test_a_group_being_imported_is_unreadable_until_it_flips(importer, held_imports):
    started = importer.start("splitwise-csv", fixture_text("splitwise_group_en.csv"),
                             me="Ana").get_json()
    group_id = started["groupId"]
    ((held_group, import_id),) = held_imports
    assert held_group == group_id
    assert importer.status(import_id)["status"] == "RUNNING"
    # Half written: the worker has put every row but not yet flipped the head.
    parsed = parse.parse_file("splitwise-csv", fixture_text("splitwise_group_en.csv"))
    owner_key = parse.resolve_me(parsed, "Ana")
    written = run_import.writer.write(group_id, parsed, importer=importer.user_id,
                                  owner_key=owner_key, owner_participant_id="p-owner")
    expense_id = next(sk for sk in group_rows(group_id) if sk.startswith("EXPENSE#"))[8:44]

    for path in ("", "/balances", "/expenses", "/participants", "/settlements", "/export"):
        assert importer.client.get(f"/groups/{group_id}{path}",
                                   headers=importer.headers).status_code == 404, path
    assert importer.client.get(f"/expenses/{expense_id}",
                               headers=importer.headers).status_code == 404
    home = importer.client.get("/users/me/groups", headers=importer.headers).get_json()
    assert group_id not in {g["groupId"] for g in home["items"]}
    # Not even with the (secret) invite code: the IMPORTING head hides the group itself.
    code = Invite.get(*Invite.key(group_id), consistent_read=True).Code
    assert importer.client.get(f"/groups/{group_id}/invite/preview?code={code}",
                               headers=importer.headers).status_code == 404
    assert importer.client.post(f"/groups/{group_id}/join-requests",
                                json={"code": code, "mode": "NEW"},
                                headers=importer.headers).status_code == 404

    assert run_import.run_import(group_id, import_id) == "DONE"  # redelivered: redone from scratch
    assert importer.status(import_id)["status"] == "DONE"
    assert importer.client.get(f"/groups/{group_id}/balances",
                               headers=importer.headers).status_code == 200
    assert len([sk for sk in group_rows(group_id) if sk.startswith("EXPENSE#")]) == \
        written.expenses  # the half-written run's rows were removed, not doubled


def test_a_repeated_key_replays_the_first_202_and_starts_nothing_new(importer):
    key = {"Idempotency-Key": "import-once"}
    content = fixture_text("splitwise_friend_de.csv")
    first = importer.start("splitwise-csv", content, headers=key)
    before = all_group_keys()
    again = importer.start("splitwise-csv", content, headers=key)

    assert first.status_code == again.status_code == 202
    assert again.get_json() == first.get_json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert all_group_keys() == before
    assert importer.start("splitwise-csv", content + "\n", headers=key).status_code == 422


def test_an_import_is_visible_to_its_importer_only(importer, sign_in):
    status = importer.run("splitwise-csv", fixture_text("splitwise_friend_de.csv"))
    other, _ = sign_in("someone@example.com")

    assert importer.client.get(f"/imports/{status['importId']}",
                               headers=other).status_code == 404
    assert _names_nobody(status["groupId"], importer)
    assert importer.client.get(f"/groups/{status['groupId']}",
                               headers=other).status_code == 404


def test_me_must_name_one_member_of_the_file(importer):
    reply = importer.start("splitwise-csv", fixture_text("splitwise_friend_de.csv"), me="Nobody")
    assert reply.status_code == 400
    assert "me" in reply.get_json()["error"]["details"]


def test_a_duplicate_delivery_leaves_an_import_another_run_holds(importer, held_imports):
    started = importer.start("splitwise-csv", fixture_text("splitwise_friend_de.csv")).get_json()
    ((group_id, import_id),) = held_imports
    assert run_import.claim(group_id) is not None  # a run elsewhere holds it

    assert run_import.run_import(group_id, import_id) == "RUNNING"
    assert not any(sk.startswith(("EXPENSE#", "PARTICIPANT#")) for sk in group_rows(group_id))
    assert importer.status(started["importId"])["status"] == "RUNNING"
