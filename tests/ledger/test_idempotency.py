"""Idempotency-Key on POST /groups/{id}/expenses: replay, reuse, in flight, expiry."""
from __future__ import annotations

from app.core import idempotency
from models.developer_tokens import IdempotencyRecord
from models.groups import Balance
from tests.ledger.helpers import equal_body


def _revision(group_id: str) -> int:
    return int(Balance.fetch_raw(group_id)["BalanceRevision"]["N"])


def _expense_count(ctx) -> int:
    return len(ctx.get("/expenses").get_json()["items"])


def test_same_key_same_body_replays_the_first_response_and_writes_nothing(group):
    body = equal_body(group.me, 900, group.everyone)
    key = {"Idempotency-Key": "k-1"}
    first = group.post("/expenses", body, headers={**group.headers, **key})
    assert first.status_code == 201
    revision = _revision(group.group_id)
    again = group.post("/expenses", body, headers={**group.headers, **key})
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert _revision(group.group_id) == revision
    assert _expense_count(group) == 1
    record = IdempotencyRecord.get(*IdempotencyRecord.key(f"APP#{group.user_id}", "k-1"))
    assert record.Status == "COMPLETED"


def test_same_key_different_body_is_422_idempotency_key_reused(group):
    key = {**group.headers, "Idempotency-Key": "k-2"}
    assert group.post("/expenses", equal_body(group.me, 900, group.everyone),
                      headers=key).status_code == 201
    reply = group.post("/expenses", equal_body(group.me, 901, group.everyone), headers=key)
    assert reply.status_code == 422
    assert reply.get_json()["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert _expense_count(group) == 1


def test_key_still_in_flight_is_409_idempotency_in_progress(group):
    body = equal_body(group.me, 900, group.everyone)
    path = f"/groups/{group.group_id}/expenses"
    import json
    fingerprint = idempotency.request_hash("POST", path, json.dumps(body).encode())
    assert idempotency.begin(f"APP#{group.user_id}", "k-3", fingerprint,
                             owner=group.user_id) is None  # first, running
    reply = group.post("/expenses", body, headers={**group.headers, "Idempotency-Key": "k-3"})
    assert reply.status_code == 409
    assert reply.get_json()["error"]["code"] == "IDEMPOTENCY_IN_PROGRESS"
    assert _expense_count(group) == 0


def test_a_record_older_than_24_hours_no_longer_replays(group):
    body = equal_body(group.me, 900, group.everyone)
    key = {**group.headers, "Idempotency-Key": "k-4"}
    first = group.post("/expenses", body, headers=key).get_json()
    # TTL may lag by days: the expiry must be enforced by the code, not by the row vanishing.
    IdempotencyRecord(*IdempotencyRecord.key(f"APP#{group.user_id}", "k-4")).update(
        actions=[IdempotencyRecord.ExpiresAt.set(1)])
    again = group.post("/expenses", body, headers=key)
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again.headers
    assert again.get_json()["expenseId"] != first["expenseId"]
    assert _expense_count(group) == 2


def test_a_failed_first_attempt_frees_the_key(group, other_group):
    key = {**group.headers, "Idempotency-Key": "k-5"}
    body = equal_body(group.me, 900, [group.me, other_group.me])
    assert group.post("/expenses", body, headers=key).status_code == 409
    body = equal_body(group.me, 900, group.everyone)
    assert group.post("/expenses", body, headers=key).status_code == 201


def test_settlement_and_comment_creates_replay_too(group):
    key = {**group.headers, "Idempotency-Key": "k-6"}
    body = {"payerId": group.guests[0], "payeeId": group.me, "amount": 100}
    first = group.post("/settlements", body, headers=key)
    again = group.post("/settlements", body, headers=key)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(group.get("/settlements").get_json()["items"]) == 1
    expense = group.add_expense()
    key = {**group.headers, "Idempotency-Key": "k-7"}
    path = f"/expenses/{expense['expenseId']}/comments"
    group.post(path, {"body": "hi"}, headers=key)
    assert group.post(path, {"body": "hi"}, headers=key).headers["Idempotent-Replayed"] == "true"
    assert len(group.get(path).get_json()["items"]) == 1


def test_the_protocol_is_written_once():
    """REST routes and MCP tools both go through idempotency.once; nothing else in the app
    claims, completes or frees a key by hand."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "app"
    steps = ("idempotency.begin(", "idempotency.complete(", "idempotency.abandon(")
    by_hand = sorted(str(path.relative_to(root)) for path in root.rglob("*.py")
                     if any(step in path.read_text() for step in steps))
    assert by_hand == []
    users = sorted(str(path.relative_to(root)) for path in root.rglob("*.py")
                   if "idempotency.once(" in path.read_text())
    assert users == ["api/idempotency.py", "mcp/tools_write.py"]
