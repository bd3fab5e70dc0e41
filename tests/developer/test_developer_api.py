"""Developer API through the Flask test client with real PATs."""
from __future__ import annotations

import datetime as dt

from botocore.exceptions import EndpointConnectionError

from tests.support import aws_calls


def test_token_lifecycle_secret_shown_once(client, owner, mint):
    pat, created = mint("groups:read")
    listed = client.get("/developer/tokens", headers=owner[0]).get_json()

    assert created["token"].startswith(f"tsp_{created['tokenId']}_")
    assert [t["tokenId"] for t in listed["items"]] == [created["tokenId"]]
    assert "token" not in listed["items"][0] and "secretHash" not in str(listed).lower()
    assert client.get("/users/me/groups", headers=pat).status_code == 200


def test_a_pat_cannot_mint_list_or_revoke_tokens(client, mint):
    pat, created = mint("groups:read", "expenses:write", "settlements:write")
    for method, path in (("post", "/developer/tokens"), ("get", "/developer/tokens"),
                         ("delete", f"/developer/tokens/{created['tokenId']}"),
                         ("get", "/users/me/usage")):
        reply = getattr(client, method)(path, headers=pat, json={"name": "x", "scopes": ["groups:read"]}
                                        if method == "post" else None)
        assert reply.status_code == 403, (path, reply.get_json())
        assert reply.get_json()["error"]["details"]["reason"] == "PAT_NOT_ALLOWED"


def test_revoked_token_is_401_on_the_next_request(client, owner, mint):
    pat, created = mint("groups:read")
    assert client.get("/users/me/groups", headers=pat).status_code == 200
    assert client.delete(f"/developer/tokens/{created['tokenId']}", headers=owner[0]).status_code == 204

    assert client.get("/users/me/groups", headers=pat).status_code == 401
    listed = client.get("/developer/tokens", headers=owner[0]).get_json()["items"]
    assert listed[0]["status"] == "REVOKED" and listed[0]["revokedAt"]


def test_another_users_token_is_404(client, sign_in, mint):
    _, created = mint("groups:read")
    stranger, _ = sign_in("stranger@example.com")
    assert client.delete(f"/developer/tokens/{created['tokenId']}", headers=stranger).status_code == 404


def test_bad_bodies_are_400(client, owner):
    for body in ({"name": "x", "scopes": ["admin"]}, {"name": "x", "scopes": []},
                 {"name": "x", "scopes": ["groups:read"], "expiresInDays": 366},
                 {"name": "x", "scopes": ["groups:read"], "expiresInDays": 0}, {"scopes": ["groups:read"]}):
        assert client.post("/developer/tokens", headers=owner[0], json=body).status_code == 400, body


def test_scope_gates_group_and_expense_routes(client, owner, mint):
    group = client.post("/groups", headers=owner[0], json={"name": "Trip", "currency": "EUR"}).get_json()
    me = group["myParticipantId"]
    expense = {"description": "Taxi", "amount": 1200, "splitMode": "EQUAL",
               "payments": [{"participantId": me, "amount": 1200}],
               "splits": [{"participantId": me, "value": 1}]}
    reader, _ = mint("groups:read")
    writer, _ = mint("expenses:write")
    base = f"/groups/{group['groupId']}"

    assert client.get(base + "/balances", headers=reader).status_code == 200
    refused = client.post(base + "/expenses", headers=reader, json=expense)
    assert refused.status_code == 403
    assert refused.get_json()["error"]["details"] == {"reason": "PAT_SCOPE", "requiredScope": "expenses:write"}
    assert client.post(base + "/expenses", headers=writer, json=expense).status_code == 201
    assert client.get(base + "/balances", headers=writer).status_code == 403
    assert client.patch(base, headers=reader, json={"name": "x"}).status_code == 403  # owner-only


def test_usage_rows_count_requests_creates_and_errors(client, owner, mint):
    pat, created = mint("groups:read", "expenses:write")
    group = client.post("/groups", headers=owner[0], json={"name": "T", "currency": "EUR"}).get_json()
    me = group["myParticipantId"]
    expense = {"description": "A", "amount": 100, "splitMode": "EQUAL",
               "payments": [{"participantId": me, "amount": 100}], "splits": [{"participantId": me, "value": 1}]}
    client.get("/users/me/groups", headers=pat, buffered=True)
    client.post(f"/groups/{group['groupId']}/expenses", headers=pat, json=expense, buffered=True)
    client.get(f"/groups/{group['groupId']}/export?format=xml", headers=pat, buffered=True)  # 400

    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    rows = client.get(f"/users/me/usage?from={today}&to={today}", headers=owner[0]).get_json()["items"]
    assert rows == [{"day": today, "tokenId": created["tokenId"], "name": "script",
                     "requests": 3, "creates": 1, "errors": 1}]
    assert client.get("/users/me/usage?from=2020-01-02&to=2020-01-01", headers=owner[0]).status_code == 400


def test_pat_rate_limit_is_429_with_retry_after_and_ratelimit_headers(client, mint, limits):
    limits(pat_per_minute=3)
    pat, _ = mint("groups:read")
    codes = [client.get("/users/me/groups", headers=pat).status_code for _ in range(4)]
    refused = client.get("/users/me/groups", headers=pat)

    assert codes == [200, 200, 200, 429] and refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "RATE_LIMITED"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.headers["RateLimit"].startswith("limit=3, remaining=0, reset=")
    assert refused.headers["RateLimit-Policy"] == "3;w=60"


def test_daily_budget_is_shared_by_the_users_tokens_until_next_utc_day(client, mint, limits):
    limits(daily_requests=3)
    first, _ = mint("groups:read")
    second, _ = mint("groups:read")
    codes = [client.get("/users/me/groups", headers=h).status_code for h in (first, second, first, second)]
    refused = client.get("/users/me/groups", headers=first)

    assert codes == [200, 200, 200, 429]
    now = dt.datetime.now(dt.timezone.utc)
    midnight = (now + dt.timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    assert abs(int(refused.headers["Retry-After"]) - (midnight - now).total_seconds()) <= 5


def test_app_users_have_their_own_limit(client, owner, limits):
    limits(app_per_minute=2)
    codes = [client.get("/users/me", headers=owner[0]).status_code for _ in range(3)]
    assert codes[-1] == 429


def test_failed_sign_ins_spend_the_source_ip_window(client, limits):
    limits(ip_per_minute=2)
    bad = {"Authorization": "Bearer tsp_nope"}
    codes = [client.get("/users/me", headers=bad).status_code for _ in range(3)]
    assert codes == [401, 401, 429]
    assert client.get("/users/me").status_code == 429  # same address, same window


def test_health_and_the_api_description_spend_no_window(client, limits):
    limits(ip_per_minute=1)
    with aws_calls.recorded() as calls:
        for path in ("/health", "/health", "/openapi.json", "/openapi.json", "/docs"):
            assert client.get(path).status_code == 200, path
    assert calls == []  # no rate-limit write: a probe never depends on that table
    assert client.get("/users/me").status_code == 401  # the window was never spent


def test_limiter_fails_open_when_its_table_is_unreachable(client, owner, mint, limits):
    pat, _ = mint("groups:read")
    limits(app_per_minute=1, pat_per_minute=1, daily_requests=1)

    def writes_unreachable(operation, _params):
        if operation in ("UpdateItem", "TransactWriteItems"):
            return EndpointConnectionError(endpoint_url="https://dynamodb.invalid")
        return None

    with aws_calls.failing(writes_unreachable):
        for _ in range(3):
            assert client.get("/users/me", headers=owner[0]).status_code == 200
            assert client.get("/users/me/groups", headers=pat).status_code == 200


def test_pat_idempotency_records_live_under_the_token_id(client, owner, mint):
    from models.developer_tokens import IdempotencyRecord
    pat, created = mint("groups:read", "settlements:write")
    group = client.post("/groups", headers=owner[0], json={"name": "I", "currency": "EUR"}).get_json()
    guest = client.post(f"/groups/{group['groupId']}/participants", headers=owner[0],
                        json={"displayName": "G"}).get_json()["participantId"]
    body = {"payerId": guest, "payeeId": group["myParticipantId"], "amount": 500}
    headers = {**pat, "Idempotency-Key": "k-1"}
    first = client.post(f"/groups/{group['groupId']}/settlements", headers=headers, json=body)
    again = client.post(f"/groups/{group['groupId']}/settlements", headers=headers, json=body)

    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert IdempotencyRecord.get(*IdempotencyRecord.key(created["tokenId"], "k-1")).Status == "COMPLETED"


def test_a_usage_window_before_year_one_is_a_400_not_a_500(client, sign_in):
    """Found by the contract fuzz: `to=0001-01-01` with no `from` left no 30-day window."""
    headers, _ = sign_in("early@example.com")
    reply = client.get("/users/me/usage", query_string={"to": "0001-01-05"}, headers=headers)
    assert reply.status_code == 400
    assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"
