"""Households through the API: the participant's label, balances' households and the
settle-up plan between units (api.md "Money as people share it")."""
from __future__ import annotations

from tests.ledger.conftest import make_group_ctx


def _household(group, pid, label, headers=None):
    return group.client.patch(f"{group.base}/participants/{pid}", json={"household": label},
                              headers=headers or group.headers)


def _four(client, sign_in):
    group = make_group_ctx(client, sign_in, "home@example.com", guests=3)
    me, a, b, c = group.everyone
    # me paid 1200 for all four: a, b, c owe 300 each.
    group.add_expense(1200)
    return group, (me, a, b, c)


def test_a_household_label_is_trimmed_case_insensitive_and_keeps_its_first_spelling(
        client, sign_in):
    group, (me, a, b, c) = _four(client, sign_in)
    first = _household(group, a, "  Smiths ")
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["household"] == "Smiths"
    second = _household(group, b, "SMITHS")
    assert second.get_json()["household"] == "Smiths"
    roster = {p["participantId"]: p for p in group.get("/participants").get_json()["items"]}
    assert roster[me]["household"] is None and roster[a]["household"] == "Smiths"
    assert roster[me]["createdAt"] and roster[me]["claimedAt"]
    cleared = _household(group, b, None)
    assert cleared.status_code == 200 and cleared.get_json()["household"] is None


def test_bad_labels_are_400(client, sign_in):
    group, (_, a, _, _) = _four(client, sign_in)
    for label in ("", "   ", "x" * 41, 5):
        reply = _household(group, a, label)
        assert reply.status_code == 400, (label, reply.get_json())
        assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"


def test_balances_settle_a_household_as_one_unit(client, sign_in):
    group, (me, a, b, c) = _four(client, sign_in)
    plain = group.get("/balances").get_json()
    assert "households" not in plain and len(plain["transfers"]) == 3
    _household(group, a, "Smiths")
    _household(group, b, "smiths")
    served = group.get("/balances").get_json()
    # Per-person nets are unchanged.
    assert {r["participantId"]: r["net"] for r in served["balances"]} == {
        me: 900, a: -300, b: -300, c: -300}
    assert served["households"] == [{"household": "Smiths", "participantIds": [a, b],
                                     "net": -600}]
    # The Smiths pay once, through the member who entered first (a: equal nets).
    transfers = sorted(served["transfers"], key=lambda t: t["amount"])
    assert [(t["fromParticipantId"], t["toParticipantId"], t["amount"],
             t.get("fromHousehold"), t.get("toHousehold")) for t in transfers] == [
        (c, me, 300, None, None), (a, me, 600, "Smiths", None)]


def test_every_household_is_listed_even_at_zero_and_in_other_currencies(client, sign_in):
    group, (me, a, b, c) = _four(client, sign_in)
    _household(group, me, "Home")
    _household(group, c, "Away")
    reply = group.post("/expenses", {
        "description": "Kept", "date": "2026-11-28", "amount": 400, "currency": "USD",
        "payments": [{"participantId": a, "amount": 400}], "splitMode": "EQUAL",
        "splits": [{"participantId": p} for p in (me, b)]})
    assert reply.status_code == 201
    served = group.get("/balances").get_json()
    assert [h["household"] for h in served["households"]] == ["Home", "Away"]
    assert {h["household"]: h["net"] for h in served["households"]} == {"Home": 900,
                                                                        "Away": -300}
    [usd] = served["otherCurrencies"]
    assert [(t["fromParticipantId"], t.get("fromHousehold")) for t in usd["transfers"]] in (
        [(me, "Home"), (b, None)], [(b, None), (me, "Home")])
    shown = group.get("/balances", query_string={"displayCurrency": "EUR"}).get_json()

    def plain(transfers):
        return sorted((t["fromParticipantId"], t["toParticipantId"], t["amount"],
                       t.get("fromHousehold"), t.get("toHousehold")) for t in transfers)

    # The display section settles the same units (EUR is the group's: the same nets).
    assert plain(shown["display"]["transfers"]) == plain(served["transfers"])
    assert (c, me, 300, "Away", "Home") in plain(served["transfers"])


def test_a_member_sets_their_own_household_but_not_anyone_elses(client, sign_in):
    group, (me, a, _, _) = _four(client, sign_in)
    headers, _ = sign_in("member@example.com")
    code = group.get("/invite").get_json()["code"]
    request = client.post(f"{group.base}/join-requests", json={"code": code, "mode": "NEW"},
                          headers=headers).get_json()
    member = client.post(f"{group.base}/join-requests/{request['requestId']}/approve",
                         json={"role": "VIEWER"}, headers=group.headers).get_json()
    mine = member["participant"]["participantId"]
    assert _household(group, mine, "Flat 2", headers).status_code == 200
    assert _household(group, a, "Flat 2", headers).status_code == 403
    refused = client.patch(f"{group.base}/participants/{mine}", json={"role": "MEMBER"},
                           headers=headers)
    assert refused.status_code == 403
