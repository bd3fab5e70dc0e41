"""Expenses through the HTTP API: shapes, exact splits, validation, versions, listing."""
from __future__ import annotations

from app.core import access as access_service
from app.ledger import expenses
from models.groups import Balance, Group, Participant
from tests.support import aws_calls
from tests.ledger.helpers import assert_balance_matches_rows, equal_body, join_directly, stored_nets
from tests.support.expense_requests import as_create


def _itemised(ctx, payments, items, **extra):
    return {"description": "Groceries", "date": "2026-11-28", "category": "FOOD",
            "payments": payments, "items": items, **extra}


def test_shorthand_create_replies_in_items_form_with_exact_owed_amounts(group):
    reply = group.post("/expenses", equal_body(group.me, 1001, group.everyone))
    assert reply.status_code == 201
    body = reply.get_json()
    assert body["version"] == 1 and body["amount"] == 1001 and body["currency"] == "EUR"
    [item] = body["items"]
    assert item["splitMode"] == "EQUAL"
    assert [s["amount"] for s in item["splits"]] == [334, 334, 333]  # leftovers in list order
    assert_balance_matches_rows(group.group_id)


def test_itemised_expense_with_two_payers_and_every_split_mode(group):
    a, b, c = group.everyone
    body = _itemised(group, [{"participantId": a, "amount": 6000},
                             {"participantId": b, "amount": 4001}], [
        {"name": "Equal", "amount": 1000, "splitMode": "EQUAL",
         "splits": [{"participantId": a}, {"participantId": b}, {"participantId": c}]},
        {"name": "Exact", "amount": 2000, "splitMode": "EXACT",
         "splits": [{"participantId": a, "value": 1500}, {"participantId": c, "value": 500}]},
        {"name": "Percent", "amount": 3001, "splitMode": "PERCENT",
         "splits": [{"participantId": b, "value": 3333}, {"participantId": c, "value": 6667}]},
        {"name": "Shares", "amount": 4000, "splitMode": "SHARES",
         "splits": [{"participantId": a, "value": 1}, {"participantId": b, "value": 3}]}],
        amount=10001)
    reply = group.post("/expenses", body)
    assert reply.status_code == 201, reply.get_json()
    items = reply.get_json()["items"]
    owed = [[s["amount"] for s in item["splits"]] for item in items]
    assert owed == [[334, 333, 333], [1500, 500], [1001, 2000], [1000, 3000]]
    for item, amounts in zip(items, owed, strict=True):
        assert sum(amounts) == item["amount"]
    assert stored_nets(group.group_id) == {a: 6000 - 334 - 1500 - 1000,
                                           b: 4001 - 333 - 1001 - 3000,
                                           c: -333 - 500 - 2000}
    assert_balance_matches_rows(group.group_id)


def test_fractional_or_boolean_money_is_400_never_truncated(group):
    for bad in (10000.4, True, "100"):
        body = equal_body(group.me, 1000, group.everyone)
        body["payments"][0]["amount"] = bad
        reply = group.post("/expenses", body)
        assert reply.status_code == 400, bad
        assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"
    assert stored_nets(group.group_id) == {}


def test_payments_must_sum_to_the_total(group):
    body = equal_body(group.me, 1000, group.everyone)
    body["payments"][0]["amount"] = 999
    reply = group.post("/expenses", body)
    assert reply.status_code == 400
    assert "payments" in reply.get_json()["error"]["details"]


def test_percent_splits_must_sum_to_10000_basis_points(group):
    body = _itemised(group, [{"participantId": group.me, "amount": 100}], [
        {"name": "x", "amount": 100, "splitMode": "PERCENT",
         "splits": [{"participantId": group.me, "value": 5000}]}])
    assert group.post("/expenses", body).status_code == 400


def test_items_and_shorthand_together_is_400(group):
    body = equal_body(group.me, 100, [group.me])
    body["items"] = [{"name": "x", "amount": 100, "splitMode": "EQUAL",
                      "splits": [{"participantId": group.me}]}]
    assert group.post("/expenses", body).status_code == 400


def test_unknown_participant_is_409_participant_unavailable(group, other_group):
    stranger = other_group.me
    reply = group.post("/expenses", equal_body(group.me, 100, [group.me, stranger]))
    assert reply.status_code == 409
    error = reply.get_json()["error"]
    assert error["code"] == "PARTICIPANT_UNAVAILABLE"
    assert error["details"] == {"participantId": stranger}
    assert stored_nets(group.group_id) == {}


def test_participant_mid_transfer_is_409(group):
    guest = group.guests[0]
    Participant(group.group_id, Participant.sort_key(guest)).update(
        actions=[Participant.TransferTarget.set(group.guests[1])])
    reply = group.post("/expenses", equal_body(group.me, 100, [group.me, guest]))
    assert reply.status_code == 409
    assert reply.get_json()["error"]["details"] == {"participantId": guest}


def test_more_than_90_participants_is_400(group):
    body = equal_body(group.me, 10000, [group.me] + [
        f"00000000-0000-4000-8000-{i:012d}" for i in range(90)])
    reply = group.post("/expenses", body)
    assert reply.status_code == 400


def test_viewer_reads_but_cannot_write_expenses(group, client, sign_in):
    headers, viewer = sign_in("viewer@example.com")
    join_directly(group.group_id, viewer, "VIEWER")
    group.add_expense()
    assert client.get(f"{group.base}/expenses", headers=headers).status_code == 200
    reply = client.post(f"{group.base}/expenses", json=equal_body(group.me, 100, [group.me]),
                        headers=headers)
    assert reply.status_code == 403


def test_list_is_newest_first_by_date_then_creation_with_date_range(group):
    first = group.add_expense(date="2026-01-10", description="a")
    second = group.add_expense(date="2026-01-10", description="b")
    older = group.add_expense(date="2026-01-01", description="c")
    newer = group.add_expense(date="2026-02-01", description="d")
    items = group.get("/expenses").get_json()["items"]
    assert [e["expenseId"] for e in items] == [newer["expenseId"], second["expenseId"],
                                               first["expenseId"], older["expenseId"]]
    ranged = group.get("/expenses?from=2026-01-05&to=2026-01-10").get_json()["items"]
    assert [e["description"] for e in ranged] == ["b", "a"]
    assert [e["description"] for e in group.get("/expenses?to=2026-01-01").get_json()["items"]
            ] == ["c"]
    assert [e["description"] for e in group.get("/expenses?from=2026-01-11").get_json()["items"]
            ] == ["d"]
    assert group.get("/expenses?from=2026-01-11&to=2026-01-10").status_code == 400
    assert group.get("/expenses?from=2026-02-30").status_code == 400


def test_list_pages_with_a_cursor_bound_to_the_list(group):
    for day in range(1, 6):
        group.add_expense(date=f"2026-03-0{day}")
    seen, cursor = [], None
    while True:
        query = "/expenses?limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = group.get(query).get_json()
        seen += [e["date"] for e in page["items"]]
        cursor = page["nextCursor"]
        if not cursor:
            break
    assert seen == [f"2026-03-0{day}" for day in range(5, 0, -1)]
    first = group.get("/expenses?limit=2").get_json()["nextCursor"]
    assert group.get(f"/settlements?cursor={first}").status_code == 400
    assert group.get(f"/expenses?limit=2&cursor={first}x").status_code == 400


def test_get_expense_by_id_alone_resolves_its_group(group, client, sign_in):
    expense = group.add_expense()
    reply = client.get(f"/expenses/{expense['expenseId']}", headers=group.headers)
    assert reply.status_code == 200
    assert reply.get_json()["groupId"] == group.group_id
    outsider, _ = sign_in("outsider@example.com")
    assert client.get(f"/expenses/{expense['expenseId']}", headers=outsider).status_code == 404
    missing = "00000000-0000-4000-8000-000000000000"
    assert client.get(f"/expenses/{missing}", headers=group.headers).status_code == 404


def test_partial_edit_changes_only_what_is_sent_and_bumps_the_version(group):
    expense = group.add_expense(900)
    path = f"/expenses/{expense['expenseId']}"
    reply = group.patch(path, {"version": 1, "description": "Lunch"})
    assert reply.status_code == 200
    edited = reply.get_json()
    assert edited["version"] == 2 and edited["description"] == "Lunch"
    assert edited["items"] == expense["items"]
    reply = group.patch(path, {"version": 2, "amount": 1200,
                               "payments": [{"participantId": group.guests[0], "amount": 1200}]})
    assert reply.status_code == 200, reply.get_json()
    assert [s["amount"] for s in reply.get_json()["items"][0]["splits"]] == [400, 400, 400]
    assert stored_nets(group.group_id) == {group.me: -400, group.guests[0]: 800,
                                           group.guests[1]: -400}
    assert_balance_matches_rows(group.group_id)


def test_stale_version_is_409_version_conflict_and_changes_nothing(group):
    expense = group.add_expense(900)
    path = f"/expenses/{expense['expenseId']}"
    assert group.patch(path, {"version": 1, "description": "x"}).status_code == 200
    before = stored_nets(group.group_id)
    reply = group.patch(path, {"version": 1, "amount": 300,
                               "payments": [{"participantId": group.me, "amount": 300}]})
    assert reply.status_code == 409
    assert reply.get_json()["error"]["code"] == "VERSION_CONFLICT"
    assert stored_nets(group.group_id) == before
    assert group.patch(path, {"description": "no version"}).status_code == 400


def test_date_edit_moves_the_expense_in_the_list_and_keeps_its_comments(group):
    early = group.add_expense(date="2026-01-01", description="early")
    group.add_expense(date="2026-01-05", description="middle")
    group.post(f"/expenses/{early['expenseId']}/comments", {"body": "still here"})
    reply = group.patch(f"/expenses/{early['expenseId']}", {"version": 1, "date": "2026-01-09"})
    assert reply.status_code == 200
    assert [e["description"] for e in group.get("/expenses").get_json()["items"]] == [
        "early", "middle"]
    detail = group.get(f"/expenses/{early['expenseId']}").get_json()
    assert detail["date"] == "2026-01-09"
    assert [c["body"] for c in detail["comments"]] == ["still here"]


def test_multi_item_expense_needs_items_to_change_its_split(group):
    body = _itemised(group, [{"participantId": group.me, "amount": 300}], [
        {"name": "a", "amount": 100, "splitMode": "EQUAL", "splits": [{"participantId": group.me}]},
        {"name": "b", "amount": 200, "splitMode": "EQUAL", "splits": [{"participantId": group.me}]}])
    expense = group.post("/expenses", body).get_json()
    reply = group.patch(f"/expenses/{expense['expenseId']}",
                        {"version": 1, "splitMode": "EQUAL",
                         "splits": [{"participantId": group.guests[0]}]})
    assert reply.status_code == 400


def test_write_after_the_group_starts_deleting_is_404(group):
    owner = access_service.authorize(group.user_id, group.group_id, "MEMBER")
    Group(*Group.key(group.group_id)).update(actions=[Group.Status.set("DELETING")])
    import pytest
    from app.errors import NotFound
    with pytest.raises(NotFound):
        expenses.create_expense(owner, as_create(equal_body(group.me, 100, [group.me])))
    assert stored_nets(group.group_id) == {}


def test_currency_change_between_read_and_write_is_409(group):
    owner = access_service.authorize(group.user_id, group.group_id, "MEMBER")
    Group(*Group.key(group.group_id)).update(actions=[Group.Currency.set("USD")])
    import pytest
    from app.errors import Conflict
    with pytest.raises(Conflict) as caught:
        expenses.create_expense(owner, as_create(equal_body(group.me, 100, [group.me])))
    assert caught.value.code == "CURRENCY_CHANGED"


def test_an_edit_that_moves_no_money_writes_no_balance_delta_and_checks_no_participants(
        group):
    expense = group.add_expense(900)
    revision_before = Balance.revision_of(Balance.fetch_raw(group.group_id))
    path = f"/expenses/{expense['expenseId']}"
    with aws_calls.requests_made() as made:
        reply = group.patch(path, {"version": 1, "description": "Lunch", "category": "food"})
    assert reply.status_code == 200, reply.get_json()
    sent = [params["TransactItems"] for operation, params in made
            if operation == "TransactWriteItems"]
    parts = [next(iter(item.values())) for item in sent[0]]
    keys = [(part.get("Key") or part.get("Item"))["SK"]["S"] for part in parts]
    # Only the group head check, the expense and its outbox event: no participant, no balance.
    assert not [k for k in keys if k.startswith(("PARTICIPANT#", "BALANCE#"))]
    assert Balance.revision_of(Balance.fetch_raw(group.group_id)) == revision_before
    # A money edit still goes through the balance row.
    reply = group.patch(path, {"version": 2, "amount": 1200,
                               "payments": [{"participantId": group.me, "amount": 1200}]})
    assert reply.status_code == 200
    assert Balance.revision_of(Balance.fetch_raw(group.group_id)) == revision_before + 1
    assert_balance_matches_rows(group.group_id)
