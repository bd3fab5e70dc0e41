"""/users/me/expenses and /users/me/stats cost the same few calls at any number of groups
(issue 50: the projection, one Query a page; api.md, Insight: cost goals <= 3)."""
from __future__ import annotations

from app.core.access import authorize
from app.groups.groups import create_group
from app.ledger import expenses
from tests.ledger.helpers import equal_body
from tests.support import aws_calls
from tests.support.projection import settle
from tests.support.expense_requests import as_create

GROUPS = 12


def test_a_page_is_at_most_three_calls_however_many_groups(client, sign_in):
    headers, me = sign_in("many@example.com", display_name="Many")
    for n in range(GROUPS):
        access = authorize(me, create_group(me, name=f"G{n}", currency="EUR").group_id)
        expenses.create_expense(access, as_create(equal_body(
            access.participant_id, 100, [access.participant_id], date=f"2026-01-{n + 1:02d}")))
    settle()
    for path in ("/users/me/expenses", "/users/me/stats"):
        with aws_calls.recorded() as made:
            reply = client.get(path, headers=headers, query_string={"limit": 100}
                               if path.endswith("expenses") else {})
        assert reply.status_code == 200, reply.get_json()
        assert len(made) <= 3, (path, made)
    items = client.get("/users/me/expenses", headers=headers).get_json()["items"]
    assert [i["groupName"] for i in items] == [f"G{n}" for n in reversed(range(GROUPS))]
