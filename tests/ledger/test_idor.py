"""IDOR: an id that belongs to another group is 404 on every route of this area."""
from __future__ import annotations

import pytest

from tests.ledger.helpers import equal_body, join_directly, stored_nets


@pytest.fixture
def two_groups(group, other_group):
    """The caller owns ``group`` and is also a MEMBER of ``other_group``, whose ids we use."""
    join_directly(other_group.group_id, group.user_id, "MEMBER", name="Owner of A")
    mine = group.add_expense(900)
    theirs = other_group.add_expense(600)
    their_comment = other_group.post(f"/expenses/{theirs['expenseId']}/comments",
                                     {"body": "theirs"}).get_json()
    their_settlement = other_group.post("/settlements", {
        "payerId": other_group.guests[0], "payeeId": other_group.me, "amount": 100}).get_json()
    return group, other_group, mine, theirs, their_comment, their_settlement


def test_every_route_with_an_id_from_another_group_is_404(two_groups):
    a, b, mine, theirs, comment, settlement = two_groups
    before = stored_nets(b.group_id)
    eid, cid, sid = theirs["expenseId"], comment["commentId"], settlement["settlementId"]
    my_eid = mine["expenseId"]
    calls = [
        ("GET", f"/expenses/{eid}", None),
        ("PATCH", f"/expenses/{eid}", {"version": 1, "description": "hijack"}),
        ("DELETE", f"/expenses/{eid}", None),
        ("GET", f"/expenses/{eid}/comments", None),
        ("POST", f"/expenses/{eid}/comments", {"body": "hijack"}),
        ("PATCH", f"/expenses/{eid}/comments/{cid}", {"body": "hijack"}),
        ("DELETE", f"/expenses/{eid}/comments/{cid}", None),
        ("PATCH", f"/expenses/{my_eid}/comments/{cid}", {"body": "hijack"}),
        ("DELETE", f"/expenses/{my_eid}/comments/{cid}", None),
        ("GET", f"/settlements/{sid}", None),
        ("PATCH", f"/settlements/{sid}", {"version": 1, "amount": 5}),
        ("DELETE", f"/settlements/{sid}", None),
    ]
    for method, path, body in calls:
        reply = a.client.open(a.base + path, method=method, json=body, headers=a.headers)
        assert reply.status_code == 404, (method, path, reply.get_json())
        assert reply.get_json()["error"]["code"] == "NOT_FOUND"
    assert stored_nets(b.group_id) == before
    assert b.get(f"/expenses/{eid}").get_json()["comments"][0]["body"] == "theirs"
    assert b.get(f"/settlements/{sid}").get_json()["amount"] == 100


def test_a_non_member_gets_404_for_every_route_of_the_group(group, client, sign_in):
    expense = group.add_expense(900)
    comment = group.post(f"/expenses/{expense['expenseId']}/comments", {"body": "x"}).get_json()
    settlement = group.post("/settlements", {"payerId": group.guests[0], "payeeId": group.me,
                                             "amount": 100}).get_json()
    outsider, _ = sign_in("outsider@example.com")
    eid, cid, sid = expense["expenseId"], comment["commentId"], settlement["settlementId"]
    calls = [
        ("GET", "/expenses", None), ("POST", "/expenses", equal_body(group.me, 100, [group.me])),
        ("GET", f"/expenses/{eid}", None),
        ("PATCH", f"/expenses/{eid}", {"version": 1, "description": "x"}),
        ("DELETE", f"/expenses/{eid}", None),
        ("GET", f"/expenses/{eid}/comments", None),
        ("POST", f"/expenses/{eid}/comments", {"body": "x"}),
        ("PATCH", f"/expenses/{eid}/comments/{cid}", {"body": "x"}),
        ("DELETE", f"/expenses/{eid}/comments/{cid}", None),
        ("GET", "/settlements", None),
        ("POST", "/settlements", {"payerId": group.me, "payeeId": group.guests[0], "amount": 1}),
        ("GET", f"/settlements/{sid}", None),
        ("PATCH", f"/settlements/{sid}", {"version": 1, "amount": 5}),
        ("DELETE", f"/settlements/{sid}", None),
        ("GET", "/balances", None), ("GET", "/export?format=json", None),
    ]
    for method, path, body in calls:
        reply = client.open(group.base + path, method=method, json=body, headers=outsider)
        assert reply.status_code == 404, (method, path)
    assert client.get(f"/expenses/{eid}", headers=outsider).status_code == 404
