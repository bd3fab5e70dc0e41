"""GET /groups/{id}/stats and GET /users/me/stats: totals equal an independent recomputation
from the expense list; settlements and conversions are not spending; one Query by date."""
from __future__ import annotations

from collections import defaultdict

from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from moto import mock_aws

import models
from app.errors import Invalid
from app.insight import stats
from app.ledger import expenses, settlements
from app.money.settlement_input import SettlementInput
from tests.support.projection import settle
from tests.conftest import STAGE
from tests.ledger.helpers import equal_body, join_directly, make_group, make_user
from tests.support import aws_calls
from tests.support.tables import create_all_tables
from tests.support.expense_requests import as_create

specs = st.lists(st.tuples(
    st.integers(1, 9000), st.integers(0, 2), st.lists(st.integers(0, 2), min_size=1,
                                                      max_size=3, unique=True),
    st.sampled_from([None, "FOOD", "TRAVEL"]), st.sampled_from(["EUR", "USD", "USD+rate"]),
    st.sampled_from(["2026-01-05", "2026-01-31", "2026-02-10", "2026-03-01"]),
    st.sampled_from(["EXPENSE", "INCOME"])),
    max_size=10)


def expected(rows, by, main, me=None):
    """{currency: {key: [spent, paid, count]}} from the stored expense rows, summed by hand
    (an INCOME's spent and paid negative, its count 1)."""
    out = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for row in rows:
        conv = row.GroupAmount is not None
        cur = main if conv else row.Currency
        sign = -1 if row.ExpenseKind == "INCOME" else 1
        owed, paid = defaultdict(int), defaultdict(int)
        for item in row.Items:
            for s in item.Splits:
                owed[s.ParticipantId] += sign * int(s.GroupAmount if conv else s.Amount)
        for p in row.Payments:
            paid[p.ParticipantId] += sign * int(p.GroupAmount if conv else p.Amount)
        if me is not None:
            if me not in owed and me not in paid:
                continue
            owed, paid = {me: owed.get(me, 0)}, {me: paid.get(me, 0)}
        if by == "participant":
            for pid in set(owed) | set(paid):
                cell = out[cur][pid]
                cell[0] += owed.get(pid, 0)
                cell[1] += paid.get(pid, 0)
                cell[2] += 1
            continue
        key = row.Date[:7] if by == "month" else row.GroupId if by == "group" else row.Category
        cell = out[cur][key]
        cell[0] += sum(owed.values())
        cell[1] += sum(paid.values())
        cell[2] += 1
    return out


def as_table(section):
    return {row["key"]: [row["spent"], row["paid"], row["count"]] for row in section["rows"]}


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck),
          phases=(Phase.explicit, Phase.generate))
@given(rows=specs, by=st.sampled_from(["category", "month", "participant"]),
       window=st.sampled_from([(None, None), ("2026-01-31", "2026-02-28")]))
def test_group_and_my_stats_equal_a_recomputation(rows, by, window):
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        me = make_user("me@example.com")
        access, ids = make_group(me)
        for amount, payer, among, category, currency, day, kind in rows:
            body = {**equal_body(ids[payer], amount, [ids[i] for i in among], date=day),
                    "category": category, "kind": kind}
            if currency != "EUR":
                body["currency"] = "USD"
            if currency == "USD+rate":
                body["exchangeRate"] = "0.9"
            try:
                expenses.create_expense(access, as_create(body))
            except Invalid as error:  # a rate converting an amount to nothing
                assert "exchangeRate" in getattr(error, "details", {}), error
        if rows:  # a settlement is not spending
            settlements.create_settlement(access, SettlementInput.of(payer_id=ids[1], payee_id=ids[0], amount=100))
        stored = [e for e in expenses_in(access.group_id)
                  if (window[0] is None or window[0] <= e.Date <= window[1])]
        reply = stats.group_stats(access, by=by, date_from=window[0], date_to=window[1])
        want = expected(stored, by, "EUR")
        assert as_table(reply) == dict(want.get("EUR", {}))
        assert {s["currency"]: as_table(s) for s in reply["otherCurrencies"]} == {
            c: dict(t) for c, t in want.items() if c != "EUR"}
        assert reply["total"]["spent"] == sum(v[0] for v in want.get("EUR", {}).values())
        assert reply["total"]["spent"] == reply["total"]["paid"]
        spents = [r["spent"] for r in reply["rows"]]
        if by == "month":
            assert [r["key"] for r in reply["rows"]] == sorted(r["key"] for r in reply["rows"])
        else:
            assert spents == sorted(spents, reverse=True)
        settle()  # my stats read the projection the groups stream keeps
        mine = stats.my_stats(me, by="group" if by == "participant" else by,
                              date_from=window[0], date_to=window[1], display_currency=None,
                              day="2026-03-01")
        want_mine = expected(stored, "group" if by == "participant" else by, "EUR",
                             me=access.participant_id)
        assert {s["currency"]: as_table(s) for s in mine["sections"]} == {
            c: dict(t) for c, t in want_mine.items()}


def expenses_in(group_id):
    from models.groups import Expense
    return list(Expense.listing(group_id))


def test_routes_answer_with_one_query_by_date(group, client, sign_in):
    group.add_expense(900, date="2026-05-02")
    group.add_expense(300, date="2026-06-02")
    with aws_calls.requests_made() as made:
        reply = group.get("/stats", query_string={"by": "month", "from": "2026-05-01"}).get_json()
    assert [r["key"] for r in reply["rows"]] == ["2026-05", "2026-06"]
    assert reply["total"] == {"spent": 1200, "paid": 1200, "count": 2}
    calls = [(operation, params.get("IndexName")) for operation, params in made]
    assert [c for c in calls if c[0] in ("Query", "Scan")] == [("Query", "GroupExpensesIndex")]
    settle()
    mine = client.get("/users/me/stats", query_string={"by": "group", "displayCurrency": "USD"},
                      headers=group.headers).get_json()
    (section,) = mine["sections"]
    assert section["total"] == {"spent": 400, "paid": 1200, "count": 2}
    assert mine["display"]["currency"] == "USD" and mine["display"]["total"]["paid"] > 0
    assert group.get("/stats", query_string={"by": "nope"}).status_code == 400


def test_a_guest_participant_is_counted_by_participant(group):
    other = join_directly(group.group_id, make_user("x@example.com"), "MEMBER")
    group.add_expense(1000, payer=other, among=[group.me, other])
    rows = {r["key"]: r for r in group.get("/stats", query_string={"by": "participant"})
            .get_json()["rows"]}
    assert rows[other]["paid"] == 1000 and rows[other]["spent"] == 500
