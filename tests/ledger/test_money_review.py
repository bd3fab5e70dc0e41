"""Issue 30's money findings, black-box through HTTP: bounded conversion rates, undoing a
conversion, conversions that follow their people (transfer, removal) and the rates route's
date parameter."""
from __future__ import annotations

import pytest

from tests.ledger.helpers import assert_balance_matches_rows, equal_body


def _kept(group, amount, currency="JPY", payer=None):
    body = {**equal_body(payer or group.me, amount, group.everyone), "currency": currency}
    reply = group.post("/expenses", body)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def _sections(group):
    reply = group.get("/balances").get_json()
    main = {row["participantId"]: row["net"] for row in reply["balances"] if row["net"]}
    other = {s["currency"]: {row["participantId"]: row["net"] for row in s["balances"]
                             if row["net"]} for s in reply["otherCurrencies"]}
    return main, other


@pytest.mark.parametrize("day", ["2026-11-31", "2024-13-01", "2024-02-30", "2024-00-10"])
def test_rates_for_a_day_that_does_not_exist_is_a_400_naming_date(client, sign_in, day):
    headers, _ = sign_in("rates@example.com")
    reply = client.get(f"/fx/rates?date={day}", headers=headers)
    assert reply.status_code == 400, reply.get_json()
    assert "date" in str(reply.get_json()["error"]["details"])


@pytest.mark.parametrize("rate", ["100000000000000000000000", "0.000000000000000000000001"])
def test_a_conversion_rate_that_zeroes_or_overflows_a_net_is_refused(group, rate):
    _kept(group, 900)
    before = _sections(group)
    reply = group.post("/conversions", {"currency": "JPY", "exchangeRate": rate,
                                        "confirmOutlier": True})
    assert reply.status_code == 400, reply.get_json()
    error = reply.get_json()["error"]
    assert error["code"] == "VALIDATION_ERROR" and "exchangeRate" in error["details"]
    assert _sections(group) == before


def test_a_rate_100x_off_the_reference_needs_confirm_outlier(group):
    _kept(group, 900)
    reference = group.client.get("/fx/rates?base=JPY", headers=group.headers).get_json()
    off = format(float(reference["rates"]["EUR"]) * 500, ".6f")
    reply = group.post("/conversions", {"currency": "JPY", "exchangeRate": off})
    assert reply.status_code == 400, reply.get_json()
    error = reply.get_json()["error"]
    assert error["code"] == "RATE_OUTLIER" and "exchangeRate" in error["details"]
    assert group.post("/conversions", {"currency": "JPY", "exchangeRate": off,
                                       "confirmOutlier": True}).status_code == 201


def _plus(a: dict, b: dict, sign: int = 1) -> dict:
    out = {k: a.get(k, 0) + sign * b.get(k, 0) for k in set(a) | set(b)}
    return {k: v for k, v in out.items() if v}


def test_deleting_a_conversion_gives_the_kept_nets_back_to_the_cent(group):
    _kept(group, 900)
    before = _sections(group)
    made = group.post("/conversions", {"currency": "JPY", "exchangeRate": "0.0061"}).get_json()
    assert made["keptNets"] == before[1]["JPY"] and _sections(group)[1] == {}
    # Money moves after it: the undo reverses only the conversion's own amounts.
    _kept(group, 301, payer=group.guests[0])
    group.add_expense(700)
    main, kept = _sections(group)
    revision = group.get("/changes?since=0").get_json()["revision"]
    assert group.delete(f"/conversions/{made['conversionId']}").status_code == 204
    assert group.get(f"/conversions/{made['conversionId']}").status_code == 404
    assert _sections(group) == (_plus(main, made["groupNets"], -1),
                                {"JPY": _plus(kept["JPY"], made["keptNets"])})
    assert_balance_matches_rows(group.group_id)
    changes = group.get(f"/changes?since={revision}").get_json()["changes"]
    assert [(c["kind"], c["id"], c["op"]) for c in changes] == [
        ("CONVERSION", made["conversionId"], "DELETE")]
    activity = group.get("/activity").get_json()["items"][0]
    assert (activity["kind"], activity["op"]) == ("CONVERSION", "DELETE")
    assert "undid" in activity["summary"]
    assert group.delete(f"/conversions/{made['conversionId']}").status_code == 404


def test_only_a_member_may_undo_a_conversion(group, sign_in):
    from tests.ledger.helpers import join_directly
    _kept(group, 900)
    made = group.post("/conversions", {"currency": "JPY", "exchangeRate": "0.0061"}).get_json()
    headers, user_id = sign_in("viewer@example.com")
    join_directly(group.group_id, user_id, "VIEWER")
    reply = group.client.delete(f"{group.base}/conversions/{made['conversionId']}",
                                headers=headers)
    assert reply.status_code == 403


def _transfer(group, source, target):
    return group.post(f"/participants/{source}/transfer", {"targetParticipantId": target})


def test_a_transfer_moves_converted_nets_in_every_section(group):
    guest, target = group.guests
    _kept(group, 1000, payer=guest)
    made = group.post("/conversions", {"currency": "JPY", "exchangeRate": "0.0061"}).get_json()
    assert made["groupNets"][guest] > 0
    _kept(group, 300, currency="KWD", payer=guest)  # and a kept section left as it is
    main, kept = _sections(group)
    reply = _transfer(group, guest, target)
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["conversions"] == 1 and reply.get_json()["sourceRemoved"]
    merged = {"main": main, **kept}
    for nets in merged.values():
        nets[target] = nets.get(target, 0) + nets.pop(guest, 0)
    after_main, after_kept = _sections(group)
    assert {"main": after_main, **after_kept} == {
        name: {k: v for k, v in nets.items() if v} for name, nets in merged.items()}
    names = {row["displayName"] for row in group.get("/balances").get_json()["balances"]}
    assert "Former participant" not in names
    assert_balance_matches_rows(group.group_id)
    # Undoing the conversion now gives its amounts back to the target.
    assert group.delete(f"/conversions/{made['conversionId']}").status_code == 204
    assert guest not in str(_sections(group))
    assert_balance_matches_rows(group.group_id)


def test_a_guest_named_only_by_a_conversion_cannot_be_removed(group):
    guest = group.guests[0]
    expense = _kept(group, 1000, payer=guest)
    group.post("/conversions", {"currency": "JPY", "exchangeRate": "0.0061"})
    assert group.delete(f"/expenses/{expense['expenseId']}").status_code == 204
    reply = group.delete(f"/participants/{guest}")
    assert reply.status_code == 409, reply.get_json()
    assert reply.get_json()["error"]["code"] == "PARTICIPANT_REFERENCED"
    assert any(row["participantId"] == guest
               for row in group.get("/balances").get_json()["balances"])


def _group_change(group, since):
    changes = group.get(f"/changes?since={since}").get_json()
    return [c for c in changes["changes"] if c["kind"] == "GROUP"], changes["revision"]


@pytest.mark.parametrize("how", ["promote-demote", "remove", "leave"])
def test_every_owner_count_move_is_a_group_change(group, sign_in, how):
    from tests.ledger.helpers import join_directly
    headers, user_id = sign_in("second@example.com")
    pid = join_directly(group.group_id, user_id, "MEMBER", name="Second")
    since = group.get("/changes?since=0").get_json()["revision"]
    reply = group.patch(f"/participants/{pid}", {"role": "OWNER"})
    assert reply.status_code == 200, reply.get_json()
    found, since_2 = _group_change(group, since)
    assert [c["data"]["ownerCount"] for c in found] == [2]
    assert found[0]["data"]["ownerCount"] == group.get("").get_json()["ownerCount"]
    if how == "promote-demote":
        assert group.patch(f"/participants/{pid}", {"role": "MEMBER"}).status_code == 200
    elif how == "remove":
        assert group.delete(f"/participants/{pid}").status_code == 204
    else:
        assert group.client.post(f"{group.base}/leave", headers=headers).status_code in (200, 204)
    found, _ = _group_change(group, since_2)
    assert [c["data"]["ownerCount"] for c in found] == [1]
    assert group.get("").get_json()["ownerCount"] == 1
