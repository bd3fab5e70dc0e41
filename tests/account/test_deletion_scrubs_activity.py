"""Issue 30 item 7: a deleted expense, and a deleted account's writing, stop being readable
in /activity. The verb, the actor and the amount stay; the typed text (the description, an
edit's before/after) goes, for a member who joins after it all happened too."""
from __future__ import annotations

import json

from tests.account.conftest import _expense, _post

SECRET = "Clinic copay for Bo (private)"
EDITED = "Clinic copay for Bo (private!)"
KEPT = "Dora's surprise gift for Olive"


def _join(client, owner_h, joiner_h, gid):
    code = client.get(f"/groups/{gid}/invite", headers=owner_h).get_json()["code"]
    request = _post(client, f"/groups/{gid}/join-requests", joiner_h, {"code": code, "mode": "NEW"})
    return _post(client, f"/groups/{gid}/join-requests/{request['requestId']}/approve", owner_h,
                 {"role": "MEMBER"}, status=200)["participant"]["participantId"]


def test_a_deleted_expense_and_its_deleted_author_leave_no_text_in_activity(
        client, sign_in, directory):
    olive_h, _ = sign_in("olive@example.com", display_name="Olive")
    dora_h, _ = sign_in("dora@example.com", display_name="Dora")
    group = _post(client, "/groups", olive_h, {"name": "Flat", "currency": "EUR"})
    gid, olive_pid = group["groupId"], group["myParticipantId"]
    dora_pid = _join(client, olive_h, dora_h, gid)

    expense = _post(client, f"/groups/{gid}/expenses", dora_h,
                    _expense(dora_pid, 4200, [dora_pid, olive_pid], description=SECRET))
    path = f"/groups/{gid}/expenses/{expense['expenseId']}"
    assert client.patch(path, json={"version": 1, "description": EDITED},
                        headers=dora_h).status_code == 200
    assert client.delete(path, headers=dora_h).status_code == 204
    # Still there, but written by the account that goes: its activity text goes with it.
    _post(client, f"/groups/{gid}/expenses", dora_h,
          _expense(dora_pid, 1500, [dora_pid, olive_pid], description=KEPT))
    assert client.delete("/users/me", headers=dora_h).status_code == 204

    pat_h, _ = sign_in("pat@example.com", display_name="Pat")
    _join(client, olive_h, pat_h, gid)
    reply = client.get(f"/groups/{gid}/activity", headers=pat_h)
    assert reply.status_code == 200
    text = json.dumps(reply.get_json())
    for typed in (SECRET, EDITED, KEPT, "Clinic", "surprise"):
        assert typed not in text
    mine = [item for item in reply.get_json()["items"] if item["actor"]["participantId"] == dora_pid]
    summaries = [item["summary"] for item in mine]
    assert "Dora added an expense (€15.00)" in summaries
    assert "Dora deleted an expense (€42.00)" in summaries
    assert "Dora edited an expense (€42.00)" in summaries
    assert "Dora added an expense (€42.00)" in summaries
    edit = next(item for item in mine if item["summary"].startswith("Dora edited"))
    assert edit["diff"] == [{"field": "description", "before": None, "after": None}]


def test_a_deleted_settlement_note_is_scrubbed_but_the_payment_stays(client, sign_in):
    olive_h, _ = sign_in("olive@example.com", display_name="Olive")
    group = _post(client, "/groups", olive_h, {"name": "Flat", "currency": "EUR"})
    gid, olive_pid = group["groupId"], group["myParticipantId"]
    guest = _post(client, f"/groups/{gid}/participants", olive_h, {"displayName": "Gus"})
    settlement = _post(client, f"/groups/{gid}/settlements", olive_h,
                       {"payerId": guest["participantId"], "payeeId": olive_pid,
                        "amount": 700, "note": "for the pharmacy run"})
    path = f"/groups/{gid}/settlements/{settlement['settlementId']}"
    assert client.patch(path, json={"version": 1, "note": "for the clinic run"},
                        headers=olive_h).status_code == 200
    assert client.delete(path, headers=olive_h).status_code == 204
    items = client.get(f"/groups/{gid}/activity", headers=olive_h).get_json()["items"]
    assert "pharmacy" not in json.dumps(items) and "clinic" not in json.dumps(items)
    assert items[0]["summary"] == "Olive deleted a payment: Gus paid Olive €7.00"
    assert items[1]["diff"] == [{"field": "note", "before": None, "after": None}]
