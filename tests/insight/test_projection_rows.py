"""The projection's rows (issue 50): keyed by date in the account's partition (no index), a
create written without a read first, a moved date's row moved, conversions projected, the
row's kind carried for kinds to come, and every row within one write unit."""
from __future__ import annotations

from app.core.access import authorize
from app.groups.groups import create_group
from app.insight import projection
from app.ledger import expenses, settlements
from app.money.settlement_input import SettlementInput
from models.groups import Expense, GroupItem
from models.users import MyEntry
from models.users.mine import ROW_BYTES
from tests.ledger.helpers import equal_body, join_directly, make_user
from tests.support import aws_calls
from tests.support.expense_requests import as_create, as_edit
from tests.support.projection import settle_new as settle


def _rows(user_id: str) -> list:
    return [row for page in MyEntry.pages_of(user_id, 500) for row in page]


def _shared_group():
    me, bo = make_user("me@example.com"), make_user("bo@example.com")
    access = authorize(me, create_group(me, name="Trip", currency="EUR").group_id)
    them = join_directly(access.group_id, bo, "MEMBER", "Bo")
    return access, me, bo, them


def test_a_create_is_one_consistent_read_of_the_group_and_a_put_per_account(aws):
    access, me, bo, them = _shared_group()
    made = expenses.create_expense(access, as_create(equal_body(
        access.participant_id, 300, [access.participant_id, them], date="2026-03-04")))
    with aws_calls.recorded() as calls:
        projection.sync_resource(access.group_id, made.SK, None, True)
    assert sorted(calls) == ["BatchGetItem", "PutItem", "PutItem"]
    for user_id, paid, owed in ((me, 300, 150), (bo, 0, 150)):
        (row,) = _rows(user_id)
        assert row.SK == f"MINE#E#{made.ExpenseSortKey}#{access.group_id}"
        assert row.order.startswith("E#2026-03-04#")
        assert (row.Kind, int(row.Paid), int(row.Owed), row.With) == (
            "EXPENSE", paid, owed, {me, bo})


def test_an_edit_that_moves_the_date_moves_the_row_and_drops_an_account_no_longer_named(aws):
    access, me, bo, them = _shared_group()
    made = expenses.create_expense(access, as_create(equal_body(
        access.participant_id, 300, [access.participant_id, them], date="2026-03-04")))
    settle()
    expenses.update_expense(access, made.ExpenseId, 1, as_edit(equal_body(
        access.participant_id, 300, [access.participant_id], date="2026-05-06")))
    settle()
    (row,) = _rows(me)
    assert row.Date == "2026-05-06" and row.order.startswith("E#2026-05-06#")
    assert int(row.Version) == 2 and _rows(bo) == []


def test_a_settlement_edit_moves_its_row_and_its_delete_removes_it(aws):
    access, me, bo, them = _shared_group()
    made = settlements.create_settlement(access, SettlementInput.of(
        payer_id=them, payee_id=access.participant_id, amount=50, date="2026-02-01"))
    settle()
    assert [(r.Kind, r.Date) for r in _rows(bo)] == [("SETTLEMENT", "2026-02-01")]
    settlements.update_settlement(access, made.settlement.SettlementId, 1,
                                  SettlementInput.of(date="2026-02-09"))
    settle()
    for user_id in (me, bo):
        assert [(r.Date, r.order[:13]) for r in _rows(user_id)] == [
            ("2026-02-09", "S#2026-02-09#")]
    settlements.delete_settlement(access, made.settlement.SettlementId)
    settle()
    assert _rows(me) == [] and _rows(bo) == []


def test_a_conversion_is_projected_with_both_sides_and_removed_with_its_delete(group):
    kept = equal_body(group.me, 3000, group.everyone)
    assert group.post("/expenses", {**kept, "currency": "USD"}).status_code == 201
    made = group.post("/conversions", {"currency": "USD", "exchangeRate": "0.9"}).get_json()
    settle()
    rows = {row.Kind: row for row in _rows(group.user_id)}
    assert set(rows) == {"EXPENSE", "CONVERSION"}
    moved = rows["CONVERSION"]
    # The owner was owed 2,000 USD: that leaves the USD section and 1,800 EUR arrives.
    assert (moved.Currency, int(moved.Paid), int(moved.Owed), int(moved.GroupNet)) == (
        "USD", 0, 2000, 1800)
    assert moved.order.startswith("C#") and moved.ResourceKey.startswith("CONVERSION#")
    assert group.delete(f"/conversions/{made['conversionId']}").status_code == 204
    settle()
    assert [row.Kind for row in _rows(group.user_id)] == ["EXPENSE"]


def test_the_row_carries_its_resource_kind_expense_by_default(aws):
    access, me, _, _ = _shared_group()
    made = expenses.create_expense(access, as_create(equal_body(
        access.participant_id, 300, [access.participant_id])))
    row = Expense.from_raw(GroupItem.raw_get(access.group_id, made.SK, consistent_read=True))
    state, _ = projection.read_group(access.group_id)
    assert projection.entries_of(state, row)[me].Kind == "EXPENSE"
    income = expenses.create_expense(access, as_create({**equal_body(
        access.participant_id, 300, [access.participant_id]), "kind": "INCOME"}))
    row = Expense.from_raw(GroupItem.raw_get(access.group_id, income.SK, consistent_read=True))
    entry = projection.entries_of(state, row)[me]
    # money the group received: the receiver's paid and the owner's owed both count negative
    assert (entry.Kind, int(entry.Paid), int(entry.Owed)) == ("INCOME", -300, -300)


def test_a_long_expense_keeps_its_row_within_one_write_unit_and_q_still_finds_it(
        client, sign_in):
    headers, me = sign_in("long@example.com")
    group = client.post("/groups", json={"name": "Long", "currency": "EUR"},
                        headers=headers).get_json()
    pid = group["myParticipantId"]
    items = [{"name": f"{'x' * 180} thing{n}", "amount": 100, "splitMode": "EQUAL",
              "splits": [{"participantId": pid}]} for n in range(6)]
    body = {"description": "d" * 200, "date": "2026-01-01", "amount": 600,
            "payments": [{"participantId": pid, "amount": 600}], "items": items}
    reply = client.post(f"/groups/{group['groupId']}/expenses", json=body, headers=headers)
    assert reply.status_code == 201, reply.get_json()
    settle()
    (row,) = _rows(me)
    assert row.Names is None and row.item_bytes() <= ROW_BYTES
    found = client.get("/users/me/expenses", query_string={"q": "thing5"},
                       headers=headers).get_json()["items"]
    assert [item["expenseId"] for item in found] == [reply.get_json()["expenseId"]]
    assert client.get("/users/me/expenses", query_string={"q": "nowhere"},
                      headers=headers).get_json()["items"] == []
