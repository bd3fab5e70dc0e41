"""GET /users/me/expenses: my groups' expenses that involve me, newest first, with groupId
and groupName; withUserId, q, from, to; paging never loses or repeats an item."""
from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from moto import mock_aws

import models
from app.core.access import authorize
from app.groups.groups import create_group
from app.groups.participants import add_guest
from app.ledger import expenses
from app.ledger.balances import expense_participants
from app.people.my_expenses import my_expenses
from tests.conftest import STAGE
from tests.ledger.helpers import equal_body, join_directly, make_user
from tests.support.projection import settle
from tests.support.tables import create_all_tables
from tests.support.expense_requests import as_create


def listed(client, headers, **query) -> list:
    items, cursor = [], None
    while True:
        reply = client.get("/users/me/expenses", headers=headers,
                           query_string={**query, **({"cursor": cursor} if cursor else {})})
        assert reply.status_code == 200, reply.get_json()
        body = reply.get_json()
        items += body["items"]
        cursor = body["nextCursor"]
        if not cursor:
            return items


def test_across_groups_newest_first_with_group_names(group, other_group, client, sign_in):
    bo_h, bo = sign_in("bo@example.com", display_name="Bo")
    bo_pid = join_directly(group.group_id, bo, "MEMBER", "Bo")
    client.patch(f"/groups/{other_group.group_id}", json={"name": "Flat"},
                 headers=other_group.headers)
    bo_pid2 = join_directly(other_group.group_id, bo, "MEMBER", "Bo")
    group.add_expense(900, among=[group.me, bo_pid], date="2026-03-01", description="Café crème")
    group.add_expense(500, among=[group.me, group.guests[0]], date="2026-03-05",
                      description="Guest lunch")  # not Bo's
    other_group.add_expense(700, payer=bo_pid2, among=[bo_pid2, other_group.me],
                            date="2026-03-03", description="Rent")
    other_group.add_expense(300, among=[other_group.me], date="2026-03-04",
                            description="Stranger alone")  # not Bo's
    settle()  # the listing reads the projection the groups stream keeps (api.md: Insight)
    items = listed(client, bo_h, limit=1)
    assert [(i["description"], i["groupName"]) for i in items] == [("Rent", "Flat"),
                                                                 ("Café crème", "Trip")]
    assert items[1]["groupId"] == group.group_id
    # with a person: the owner shares only the Trip with Bo
    owner_items = listed(client, group.headers, withUserId=bo)
    assert [i["description"] for i in owner_items] == ["Café crème"]
    assert [i["description"] for i in listed(client, group.headers)] == ["Guest lunch",
                                                                         "Café crème"]
    assert [i["description"] for i in listed(client, bo_h, q="CAFE")] == ["Café crème"]
    assert [i["description"] for i in listed(client, bo_h, **{"from": "2026-03-02"})] == [
        "Rent"]
    assert [i["description"] for i in listed(client, bo_h, to="2026-03-02")] == ["Café crème"]


def test_a_stranger_and_bad_input(group, client, sign_in):
    stranger_h, stranger = sign_in("z@example.com")
    assert listed(client, group.headers, withUserId=stranger) == []
    assert client.get("/users/me/expenses", headers=group.headers,
                      query_string={"from": "2026-02-01", "to": "2026-01-01"}).status_code == 400
    assert client.get("/users/me/expenses", headers=group.headers,
                      query_string={"cursor": "bogus"}).status_code == 400
    group.add_expense(100)
    group.add_expense(200)
    settle()
    first = client.get("/users/me/expenses", headers=group.headers,
                       query_string={"limit": 1}).get_json()
    assert first["nextCursor"]
    # a cursor is bound to its listing and caller
    assert client.get("/users/me/expenses", headers=stranger_h,
                      query_string={"cursor": first["nextCursor"]}).status_code == 400
    assert client.get("/users/me/expenses", headers=group.headers,
                      query_string={"cursor": first["nextCursor"], "q": "x"}).status_code == 400


DAYS = ["2026-01-01", "2026-01-02", "2026-01-03"]
group_specs = st.lists(st.tuples(
    st.booleans(),  # the other account is in it
    st.lists(st.tuples(st.sampled_from(DAYS), st.lists(st.integers(0, 3), min_size=1,
                                                       max_size=3, unique=True),
                       st.sampled_from(["Taxi", "Dinner"])), max_size=8)),
    min_size=1, max_size=4)


# One listing question; each generated world (the costly part to build) is asked several.
queries = st.tuples(
    st.integers(1, 4),  # limit
    st.sampled_from([(None, None), ("2026-01-02", None), (None, "2026-01-02"),
                     ("2026-01-02", "2026-01-03")]),  # from, to
    st.sampled_from([None, "taxi"]),  # q
    st.booleans(),  # withUserId: the other account
    st.integers(1, 12))  # the row budget of the projection Query
QUESTIONS = 5


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck),
          phases=(Phase.explicit, Phase.generate))
@given(spec=group_specs, data=st.data())
def test_paging_never_loses_or_repeats_an_item(spec, data):
    """Small row budgets make the projection Query stop early, so a short page's cursor and
    the cursor's own row (an inclusive lower date bound) are exercised."""
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        me, other = make_user("me@example.com"), make_user("o@example.com")
        made = []  # (expense id, day, description, I am in it, the other account is in it)
        for has_other, rows in spec:
            access = authorize(me, create_group(me, name="G", currency="EUR").group_id)
            pids = [access.participant_id, add_guest(access, display_name="Gus").ParticipantId]
            them = join_directly(access.group_id, other, "MEMBER") if has_other else None
            pids += [them or pids[1], pids[1]]
            for day, among, description in rows:
                body = equal_body(pids[among[0]], 100, sorted({pids[i] for i in among}),
                                  date=day, description=description)
                row = expenses.create_expense(access, as_create(body))
                involved = expense_participants(row)
                made.append((row.ExpenseId, day, description, access.participant_id in involved,
                             bool(them) and them in involved))
        settle()
        for _ in range(QUESTIONS):
            limit, window, text, with_other, max_rows = data.draw(queries)
            want = [expense_id for expense_id, day, description, mine, theirs in made
                    if mine and (not with_other or theirs)
                    and (window[0] is None or day >= window[0])
                    and (window[1] is None or day <= window[1])
                    and (text is None or description == "Taxi")]
            seen, cursor, pages = [], None, 0
            while True:
                page = my_expenses(me, with_user_id=other if with_other else None, text=text,
                                   date_from=window[0], date_to=window[1], limit=limit,
                                   cursor=cursor, scope="test", max_rows=max_rows)
                assert len(page["items"]) <= limit
                seen += [(e.ExpenseSortKey, e.GroupId, e.ExpenseId) for e in page["items"]]
                cursor, pages = page["nextCursor"], pages + 1
                assert pages < 200
                if not cursor:
                    break
            assert len(seen) == len(set(seen))  # nothing repeated
            assert seen == sorted(seen, reverse=True)  # newest first
            assert sorted(e for _, _, e in seen) == sorted(want)  # nothing lost
