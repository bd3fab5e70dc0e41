"""The Transaction wrapper: conflicts are retried with full-jitter exponential backoff (bounded),
and data DynamoDB refuses to store is the request's fault (413/400), never a 500.

DynamoDB's answers that moto never gives on its own (TransactionConflict, AWS's ValidationError
cancellation reason) are DynamoDB's error replies given through botocore's ``before-call`` event
(tests/support/aws_calls.answered): below PynamoDB and our code, which run unchanged."""
from __future__ import annotations

import pytest
from pynamodb.exceptions import TransactWriteError

from app.errors import TooLarge
from app.core import transactions
from app.core.transactions import Transaction
from models.groups import Expense
from tests.support import aws_calls


@pytest.fixture
def schedule(monkeypatch):
    """Records every backoff sleep instead of sleeping; jitter is fixed per test."""
    slept: list = []
    monkeypatch.setattr(transactions, "sleep", slept.append)
    monkeypatch.setattr(transactions, "jitter", lambda: 1.0)
    return slept


@pytest.fixture
def dynamodb_answers():
    """answers(reason, times): the next ``times`` TransactWriteItems calls are cancelled with
    ``reason`` (code, message) on every item, as DynamoDB reports them."""
    state = {"left": 0, "reason": None, "calls": 0}

    def cancel(operation, params):
        if operation != "TransactWriteItems":
            return None
        state["calls"] += 1
        if not state["left"]:
            return None
        state["left"] -= 1
        code, message = state["reason"]
        reasons = [{"Code": code, "Message": message}] * len(params["TransactItems"])
        return 400, {"Error": {"Code": "TransactionCanceledException", "Message":
                               f"Transaction cancelled, please refer cancellation reasons "
                               f"for specific reasons [{', '.join([code] * len(reasons))}]"},
                     "CancellationReasons": reasons}

    def answers(reason, times):
        state.update(left=times, reason=reason, calls=0)
        return state

    with aws_calls.answered(cancel):
        yield answers


CONFLICT = ("TransactionConflict", "Transaction is ongoing for the item")


def test_a_lost_race_is_retried_after_full_jitter_exponential_backoff(
        client, sign_in, schedule, dynamodb_answers, monkeypatch):
    headers, _ = sign_in("race@example.com")
    draws = iter([0.5, 0.25, 1.0])
    monkeypatch.setattr(transactions, "jitter", lambda: next(draws))
    state = dynamodb_answers(CONFLICT, times=3)
    reply = client.post("/groups", json={"name": "G", "currency": "EUR"}, headers=headers)
    assert reply.status_code == 201
    assert state["calls"] == 4
    base = transactions.BACKOFF_BASE
    assert schedule == pytest.approx([0.5 * base, 0.25 * 2 * base, 1.0 * 4 * base])


def test_retries_stop_after_bounded_attempts_and_total_sleep(client, sign_in, schedule,
                                                             dynamodb_answers):
    headers, _ = sign_in("race@example.com")
    state = dynamodb_answers(CONFLICT, times=100)
    reply = client.post("/groups", json={"name": "G", "currency": "EUR"}, headers=headers)
    assert reply.status_code == 409
    assert reply.get_json()["error"]["code"] == "CONCURRENT_UPDATE"
    assert state["calls"] <= transactions.MAX_ATTEMPTS
    assert len(schedule) == state["calls"] - 1
    assert sum(schedule) <= transactions.MAX_TOTAL_SLEEP + 1e-9
    # Each sleep stays under its exponential ceiling (jitter 1.0 is the worst case).
    for n, delay in enumerate(schedule):
        assert 0 <= delay <= min(transactions.BACKOFF_CAP, transactions.BACKOFF_BASE * 2 ** n)


def test_validation_error_reason_is_the_requests_fault(client, sign_in, dynamodb_answers):
    """AWS reports an item past 400 KB inside a transaction as a ValidationError reason."""
    headers, _ = sign_in("big@example.com")
    dynamodb_answers(("ValidationError", "Item size has exceeded the maximum allowed size"), 1)
    reply = client.post("/groups", json={"name": "G", "currency": "EUR"}, headers=headers)
    assert reply.status_code == 413
    assert reply.get_json()["error"]["code"] == "PAYLOAD_TOO_LARGE"


def _expense(group_id: str, expense_id: str, **fields) -> Expense:
    return Expense(group_id, Expense.sort_key(expense_id), ExpenseId=expense_id,
                   ExpenseSortKey=f"2026-01-01#{expense_id}", Description="d", Date="2026-01-01",
                   Currency="EUR", Amount=1, Payments=[], Items=[], Version=1, CreatedBy="u",
                   UpdatedBy="u", CreatedAt="t", UpdatedAt="t", **fields)


def test_item_past_400_kb_is_too_large_not_a_crash(aws):
    """The real limit, enforced by the endpoint: a 450 KB description in one put."""
    tx = Transaction().without_change("a bare row: only its size matters").put(
        _expense("g" * 36, "e" * 36, Category="x" * 450_000))
    with pytest.raises(TooLarge):
        tx.commit()


def test_key_past_its_size_limit_is_too_large_not_a_crash(aws):
    tx = Transaction().without_change("a bare row: only its key size matters").put(
        _expense("g" * 3000, "e" * 36))
    with pytest.raises(TooLarge):
        tx.commit()


def test_other_failures_still_surface(aws, dynamodb_answers):
    """A cancellation we cannot attribute to the request is not disguised as a 4xx."""
    dynamodb_answers(("ThrottlingError", "Throughput exceeds the current capacity"), 1)
    with pytest.raises(TransactWriteError):
        Transaction().without_change("a bare row").put(_expense("g" * 36, "e" * 36)).commit()

