"""A group's defaultSplit (issue 45): set and cleared by PATCH /groups/{groupId} (OWNER),
shown by GET and PATCH, and used by every create that sends an amount but names nobody."""
from __future__ import annotations

from tests.ledger.conftest import make_group_ctx
from tests.ledger.helpers import join_directly


def _patch_group(group, body):
    return group.client.patch(group.base, json=body, headers=group.headers)


def _named_nobody(group, amount=1000, **extra) -> dict:
    return {"description": "Rent", "date": "2026-11-28", "amount": amount,
            "payments": [{"participantId": group.me, "amount": amount}], **extra}


def _shares(group, weights) -> dict:
    return {"splitMode": "SHARES",
            "splits": [{"participantId": pid, "value": w} for pid, w in weights]}


def test_the_owner_sets_shows_and_clears_the_default(group):
    assert group.get("").get_json()["defaultSplit"] is None
    default = _shares(group, [(group.me, 2), (group.guests[0], 1)])
    reply = _patch_group(group, {"defaultSplit": default})
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["defaultSplit"] == default
    assert group.get("").get_json()["defaultSplit"] == default
    # A rename leaves it as it is; null clears it.
    assert _patch_group(group, {"name": "Flat"}).get_json()["defaultSplit"] == default
    assert _patch_group(group, {"defaultSplit": None}).get_json()["defaultSplit"] is None
    assert group.get("").get_json()["defaultSplit"] is None


def test_a_create_that_names_nobody_uses_the_default_and_shows_it_resolved(group):
    _patch_group(group, {"defaultSplit": _shares(group, [(group.me, 2), (group.guests[0], 1)])})
    reply = group.post("/expenses", _named_nobody(group))
    assert reply.status_code == 201, reply.get_json()
    item = reply.get_json()["items"][0]
    assert item["splitMode"] == "SHARES"
    assert [(s["participantId"], s["value"], s["amount"]) for s in item["splits"]] == [
        (group.me, 2, 667), (group.guests[0], 1, 333)]
    # A create that names its own splits ignores the default.
    own = group.post("/expenses", _named_nobody(group, splitMode="EQUAL", splits=[
        {"participantId": group.guests[1]}]))
    assert own.get_json()["items"][0]["splits"][0]["participantId"] == group.guests[1]


def test_income_uses_the_default_too(group):
    _patch_group(group, {"defaultSplit": {"splitMode": "EQUAL", "splits": [
        {"participantId": pid} for pid in group.everyone]}})
    reply = group.post("/expenses", _named_nobody(group, 900, kind="INCOME"))
    assert reply.status_code == 201, reply.get_json()
    nets = {r["participantId"]: r["net"] for r in group.get("/balances").get_json()["balances"]}
    assert nets == {group.me: -600, group.guests[0]: 300, group.guests[1]: 300}


def test_a_participant_added_later_takes_no_share_until_named(group):
    _patch_group(group, {"defaultSplit": {"splitMode": "PERCENT", "splits": [
        {"participantId": group.me, "value": 2500},
        {"participantId": group.guests[0], "value": 7500}]}})
    late = group.post("/participants", {"displayName": "Late"}).get_json()["participantId"]
    item = group.post("/expenses", _named_nobody(group)).get_json()["items"][0]
    assert late not in {s["participantId"] for s in item["splits"]}
    assert [s["amount"] for s in item["splits"]] == [250, 750]


def test_without_a_default_naming_nobody_is_a_400(group):
    reply = group.post("/expenses", _named_nobody(group))
    assert reply.status_code == 400
    assert "splits" in reply.get_json()["error"]["details"]
    # Half the shorthand is still refused by the schema, default or not.
    _patch_group(group, {"defaultSplit": {"splitMode": "EQUAL",
                                          "splits": [{"participantId": group.me}]}})
    assert group.post("/expenses", _named_nobody(group, splitMode="EQUAL")).status_code == 400


def test_a_default_naming_a_stranger_or_breaking_its_mode_is_a_400(group, other_group):
    for default in ({"splitMode": "EQUAL", "splits": [{"participantId": other_group.me}]},
                    {"splitMode": "PERCENT", "splits": [{"participantId": group.me,
                                                         "value": 9000}]},
                    {"splitMode": "SHARES", "splits": [{"participantId": group.me,
                                                        "value": 0}]},
                    {"splitMode": "EXACT", "splits": [{"participantId": group.me,
                                                       "value": 1}]},
                    {"splitMode": "EQUAL", "splits": [{"participantId": group.me},
                                                      {"participantId": group.me}]}):
        reply = _patch_group(group, {"defaultSplit": default})
        assert reply.status_code == 400, (default, reply.get_json())
        assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"
    assert group.get("").get_json()["defaultSplit"] is None


def test_only_the_owner_sets_the_default(client, sign_in, group):
    member_headers, user_id = sign_in("member@example.com")
    join_directly(group.group_id, user_id, "MEMBER")
    assert client.get(group.base, headers=member_headers).status_code == 200
    reply = client.patch(group.base, json={"defaultSplit": None}, headers=member_headers)
    assert reply.status_code == 403


def test_a_recurring_template_that_names_nobody_records_the_default(group):
    _patch_group(group, {"defaultSplit": _shares(group, [(group.me, 1), (group.guests[1], 3)])})
    body = {"description": "Rent", "amount": 400, "frequency": "MONTHLY",
            "startDate": "2026-11-28",
            "payments": [{"participantId": group.me, "amount": 400}]}
    reply = group.post("/recurring", body)
    assert reply.status_code == 201, reply.get_json()
    splits = reply.get_json()["items"][0]["splits"]
    assert [(s["participantId"], s["amount"]) for s in splits] == [(group.me, 100),
                                                                  (group.guests[1], 300)]


def test_a_default_for_a_group_in_another_currency(client, sign_in):
    jpy = make_group_ctx(client, sign_in, "yen@example.com", currency="JPY")
    _patch_group(jpy, {"defaultSplit": {"splitMode": "EQUAL", "splits": [
        {"participantId": pid} for pid in jpy.everyone]}})
    item = jpy.post("/expenses", _named_nobody(jpy, 100)).get_json()["items"][0]
    assert [s["amount"] for s in item["splits"]] == [34, 33, 33]
