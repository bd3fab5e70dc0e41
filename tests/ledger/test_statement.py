"""GET /groups/{groupId}/participants/{participantId}/statement (issue 46, item 2)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from moto import mock_aws

import models
from tests.ledger.helpers import equal_body
from tests.support import aws_calls
from tests.support.tables import create_all_tables

STAGE = "test"


def _pages(group, pid: str, limit: int = 100, currency: str | None = None) -> tuple:
    """(every line over all pages, the first page's net, how many pages)."""
    lines, cursor, pages, net = [], None, 0, None
    while True:
        query = f"?limit={limit}" + (f"&cursor={cursor}" if cursor else "") + (
            f"&currency={currency}" if currency else "")
        reply = group.get(f"/participants/{pid}/statement{query}")
        assert reply.status_code == 200, reply.get_json()
        page = reply.get_json()
        net = page["net"] if net is None else net
        lines += page["items"]
        pages += 1
        cursor = page["nextCursor"]
        if not cursor:
            return lines, net, pages


def _net_of(group, pid: str) -> int:
    return {r["participantId"]: r["net"] for r in group.get("/balances").get_json()["balances"]
            }[pid]


def test_a_statement_lists_what_moved_the_net_oldest_first_with_running_nets(group):
    a, b = group.guests
    late = group.add_expense(900, payer=group.me, among=group.everyone, date="2026-11-20",
                             description="Late")
    group.add_expense(600, payer=a, among=[a, group.me], date="2026-11-02",
                      description="Early")
    group.add_expense(500, payer=a, among=[a, b], date="2026-11-10", description="Not mine")
    settled = group.post("/settlements", {"payerId": group.me, "payeeId": a, "amount": 300,
                                          "date": "2026-11-25", "note": "cash"})
    assert settled.status_code == 201
    lines, net, _ = _pages(group, group.me)
    assert [(line["kind"], line["description"], line["paid"], line["owed"], line["effect"],
             line["runningNet"]) for line in lines] == [
        ("EXPENSE", "Early", 0, 300, -300, -300),
        ("EXPENSE", "Late", 900, 300, 600, 300),
        ("SETTLEMENT", "cash", 300, 0, 300, 600)]
    assert lines[1]["id"] == late["expenseId"] and lines[1]["date"] == "2026-11-20"
    assert net == _net_of(group, group.me) == 600


def test_pages_carry_the_running_net_and_skip_rows_of_others(group):
    a, b = group.guests
    for day in range(1, 7):
        group.add_expense(100 * day, payer=a, among=[a, b] if day % 2 else [a, group.me],
                          date=f"2026-11-0{day}")
    lines, net, pages = _pages(group, group.me, limit=2)
    assert pages == 3
    assert [line["effect"] for line in lines] == [-100, -200, -300]
    assert [line["runningNet"] for line in lines] == [-100, -300, -600]
    assert net == lines[-1]["runningNet"] == _net_of(group, group.me)


def test_an_edit_to_the_date_moves_the_row_in_the_statement(group):
    a, _ = group.guests
    first = group.add_expense(200, payer=a, among=[a, group.me], date="2026-11-01",
                              description="First")
    group.add_expense(400, payer=a, among=[a, group.me], date="2026-11-05",
                      description="Second")
    moved = group.patch(f"/expenses/{first['expenseId']}", {"version": 1, "date": "2026-11-09"})
    assert moved.status_code == 200, moved.get_json()
    lines, _, _ = _pages(group, group.me)
    assert [line["description"] for line in lines] == ["Second", "First"]


def test_a_kept_currency_and_its_conversion_have_their_own_lines(group):
    a, _ = group.guests
    reply = group.post("/expenses", {**equal_body(a, 1000, [a, group.me]), "currency": "USD"})
    assert reply.status_code == 201, reply.get_json()
    usd, usd_net, _ = _pages(group, group.me, currency="USD")
    assert [(line["kind"], line["effect"]) for line in usd] == [("EXPENSE", -500)]
    assert usd_net == -500
    assert group.post("/conversions", {"currency": "USD", "exchangeRate": "0.9"}
                      ).status_code == 201
    usd, usd_net, _ = _pages(group, group.me, currency="USD")
    assert [(line["kind"], line["runningNet"]) for line in usd] == [("EXPENSE", -500),
                                                                   ("CONVERSION", 0)]
    assert usd_net == 0
    main, net, _ = _pages(group, group.me)
    assert [(line["kind"], line["effect"]) for line in main] == [("CONVERSION", -450)]
    assert net == -450


def test_a_page_is_one_query_after_the_access_check(group):
    group.add_expense(900)
    with aws_calls.requests_made() as calls:
        assert group.get(f"/participants/{group.me}/statement").status_code == 200
    assert [op for op, _ in calls] == ["BatchGetItem", "Query"]


def test_a_stranger_participant_or_a_forged_cursor_is_refused(group, other_group):
    assert group.get(f"/participants/{other_group.me}/statement").status_code == 404
    forged = group.get(f"/participants/{group.me}/statement?cursor=AAAAAAAAAAAAAAAAAAAAAAAAAA")
    assert forged.status_code == 400
    assert group.get(f"/participants/{group.me}/statement?currency=XXX").status_code == 400


WORLD: dict = {}


@pytest.fixture(scope="module")
def world(_session_app):
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        _session_app.extensions["tailspend"].authenticator.identities.clear()
        client = _session_app.test_client()
        token = client.post("/dev/tokens", json={"email": "stmt@example.com"}).get_json()
        WORLD.update(client=client, headers={"Authorization": f"Bearer {token['accessToken']}"})
        yield WORLD
        WORLD.clear()


steps = st.lists(st.one_of(
    st.tuples(st.just("expense"), st.integers(0, 2), st.integers(1, 5000),
              st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True),
              st.integers(1, 28)),
    st.tuples(st.just("settle"), st.integers(0, 2), st.integers(0, 2), st.integers(1, 900),
              st.integers(1, 28)),
    st.tuples(st.just("delete"), st.integers(0, 20))), min_size=1, max_size=8)


@settings(max_examples=10, deadline=None, database=None, phases=(Phase.generate,),
          suppress_health_check=list(HealthCheck))
@given(history=steps, limit=st.integers(1, 4))
def test_a_statements_effects_sum_to_the_net_and_its_last_running_net_is_it(world, history,
                                                                           limit):
    client, headers = world["client"], world["headers"]
    made = client.post("/groups", json={"name": "S", "currency": "EUR"}, headers=headers)
    gid, me = made.get_json()["groupId"], made.get_json()["myParticipantId"]
    people = [me] + [client.post(f"/groups/{gid}/participants", json={"displayName": f"G{i}"},
                                 headers=headers).get_json()["participantId"] for i in range(2)]
    written = []
    for step in history:
        if step[0] == "expense":
            _, payer, amount, among, day = step
            reply = client.post(f"/groups/{gid}/expenses", headers=headers, json=equal_body(
                people[payer], amount, [people[i] for i in among], date=f"2026-10-{day:02d}"))
            written.append(reply.get_json()["expenseId"])
        elif step[0] == "settle" and step[1] != step[2]:
            _, payer, payee, amount, day = step
            assert client.post(f"/groups/{gid}/settlements", headers=headers, json={
                "payerId": people[payer], "payeeId": people[payee], "amount": amount,
                "date": f"2026-10-{day:02d}"}).status_code == 201
        elif step[0] == "delete" and written:
            expense_id = written.pop(step[1] % len(written))
            assert client.delete(f"/groups/{gid}/expenses/{expense_id}",
                                 headers=headers).status_code == 204
    served = client.get(f"/groups/{gid}/balances", headers=headers).get_json()
    nets = {r["participantId"]: r["net"] for r in served["balances"]}
    for pid in people:
        lines, cursor, first_net = [], None, None
        while True:
            page = client.get(f"/groups/{gid}/participants/{pid}/statement?limit={limit}"
                              + (f"&cursor={cursor}" if cursor else ""),
                              headers=headers).get_json()
            first_net = page["net"] if first_net is None else first_net
            lines += page["items"]
            cursor = page["nextCursor"]
            if not cursor:
                break
        assert all(line["effect"] == line["paid"] - line["owed"] != 0 for line in lines)
        assert sum(line["effect"] for line in lines) == nets[pid] == first_net
        assert (lines[-1]["runningNet"] if lines else 0) == nets[pid]
        keys = [(line["date"]) for line in lines]
        assert keys == sorted(keys)


def test_the_listing_search_and_stats_skip_the_settlements_and_conversions_in_the_index(group):
    """Settlements and conversions share GroupExpensesIndex with the expense heads (one
    index entry per money write): every expense reader still sees expenses only, in order,
    with full pages across the rows it skips."""
    a, _ = group.guests
    made = [group.add_expense(100 * day, payer=a, among=[a, group.me], date=f"2026-11-0{day}",
                              description=f"Supper {day}")["expenseId"]
            for day in (1, 3, 5, 7)]
    for day in (2, 4, 6):
        assert group.post("/settlements", {"payerId": group.me, "payeeId": a, "amount": 10,
                                           "date": f"2026-11-0{day}"}).status_code == 201
    usd = {**equal_body(a, 1000, [a, group.me]), "currency": "USD", "date": "2026-11-05"}
    assert group.post("/expenses", usd).status_code == 201
    assert group.post("/conversions", {"currency": "USD", "exchangeRate": "0.9"}
                      ).status_code == 201
    seen, cursor, sizes = [], None, []
    while True:
        reply = group.get("/expenses?limit=2" + (f"&cursor={cursor}" if cursor else ""))
        assert reply.status_code == 200, reply.get_json()
        page = reply.get_json()
        seen += [item["expenseId"] for item in page["items"]]
        sizes.append(len(page["items"]))
        cursor = page["nextCursor"]
        if not cursor:
            break
    kinds = [item["date"] for item in group.get("/expenses?limit=100").get_json()["items"]]
    assert len(seen) == 5 and seen[0] == made[3] and seen[-1] == made[0]
    assert kinds == ["2026-11-07", "2026-11-05", "2026-11-05", "2026-11-03", "2026-11-01"]
    assert sizes[:2] == [2, 2]  # full pages, the settlement rows between them skipped
    searched = group.get("/expenses?q=Supper&limit=100").get_json()["items"]
    assert sorted(item["expenseId"] for item in searched) == sorted(made)
    stats = group.get("/stats?by=month").get_json()
    assert stats["total"]["count"] == 4  # the USD row is in its own section
    lines, _, _ = _pages(group, group.me)
    assert [line["kind"] for line in lines].count("SETTLEMENT") == 3
    assert [line["kind"] for line in lines][-1] == "CONVERSION"
