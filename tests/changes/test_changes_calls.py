"""A /changes page is two DynamoDB calls: the Query of its CHANGE rows, then one
BatchGetItem that checks the caller's account and access and reads the rows they name."""
from __future__ import annotations

from tests.changes.conftest import current_revision
from tests.support import aws_calls


def test_a_page_is_one_query_and_one_batch_get_with_the_access_check(group):
    since = current_revision(group)
    expense = group.add_expense(3000, description="Pizza")
    group.patch(f"/expenses/{expense['expenseId']}", {"version": 1, "description": "Pasta"})
    with aws_calls.requests_made() as calls:
        feed = group.get("/changes", query_string={"since": since}).get_json()
    assert [op for op, _ in calls] == ["Query", "BatchGetItem"]
    keys = [key for request in calls[1][1]["RequestItems"].values() for key in request["Keys"]]
    assert len(keys) == 4  # profile, head, guard row, the expense
    assert [(c["kind"], c["data"]["description"]) for c in feed["changes"]] == [
        ("EXPENSE", "Pasta")]


def test_nothing_new_is_two_calls_too(group):
    since = current_revision(group)
    with aws_calls.requests_made() as calls:
        feed = group.get("/changes", query_string={"since": since}).get_json()
    assert feed["changes"] == [] and feed["reset"] is False
    assert [op for op, _ in calls] == ["Query", "BatchGetItem"]


def test_a_stranger_reads_the_page_but_gets_nothing_of_it(group, client, sign_in):
    group.add_expense(3000, description="Secret dinner")
    stranger, _ = sign_in("eve@example.com")
    reply = client.get(f"/groups/{group.group_id}/changes", headers=stranger)
    assert reply.status_code == 404 and b"Secret" not in reply.data


def test_a_bad_token_reads_no_page(group, client):
    with aws_calls.requests_made() as calls:
        reply = client.get(f"/groups/{group.group_id}/changes",
                           headers={"Authorization": "Bearer nonsense"})
    assert reply.status_code == 401 and "Query" not in [op for op, _ in calls]


def test_a_page_naming_more_rows_than_fit_beside_the_check_reads_them_apart(group):
    since = current_revision(group)
    made = [group.add_expense(100 + n)["expenseId"] for n in range(98)]
    with aws_calls.requests_made() as calls:
        feed = group.get("/changes", query_string={"since": since}).get_json()
    assert [op for op, _ in calls] == ["Query", "BatchGetItem", "BatchGetItem"]
    assert [c["id"] for c in feed["changes"]] == made
    assert all(c["data"]["amount"] == 100 + n for n, c in enumerate(feed["changes"]))
