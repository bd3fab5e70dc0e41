"""Search and filters on GET /groups/{id}/expenses: words, participant, category, amounts;
paging with filters never loses or repeats an item, and a page reads a bounded number of rows."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from moto import mock_aws

import models
from app.errors import Invalid
from app.core import filtered_pages
from app.ledger import expense_search, expenses
from tests.conftest import STAGE
from tests.ledger.helpers import equal_body, make_group, make_user
from tests.support.tables import create_all_tables
from tests.support.expense_requests import as_create

WORDS = ["Taxi", "café", "CAFE", "Airport", "dîner", "hotel", "Bar"]


def _plain(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if unicodedata.category(c) != "Mn").lower()


expense_specs = st.lists(st.tuples(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),  # description words
    st.integers(min_value=1, max_value=5000),                    # amount
    st.integers(min_value=0, max_value=2),                       # payer index
    st.sampled_from([None, "FOOD", "TRANSPORT"]),
    st.integers(min_value=1, max_value=28)), min_size=0, max_size=14)
filters = st.fixed_dictionaries({
    "text": st.one_of(st.none(), st.sampled_from(["cafe", "TAXI airport", "Diner", "zzz"])),
    "category": st.sampled_from([None, "food"]),
    "who": st.sampled_from([None, 0, 2]),
    "min_amount": st.one_of(st.none(), st.integers(0, 3000)),
    "max_amount": st.one_of(st.none(), st.integers(2000, 6000))})


# Each generated group (the costly part to build) is searched several times.
QUESTIONS = 5


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(specs=expense_specs, data=st.data())
def test_filtered_paging_visits_every_match_once_in_listing_order(specs, data):
    with mock_aws():
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        access, ids = make_group(make_user("s@example.com"))
        created = []
        for words, amount, payer, category, day in specs:
            # Payer index 2 pays alone (owes alone): "who=2" finds exactly those rows.
            among = [ids[2]] if payer == 2 else ids[:2]
            body = {**equal_body(ids[payer], amount, among, date=f"2026-03-{day:02d}",
                                 description=" ".join(words)), "category": category}
            created.append((expenses.create_expense(access, as_create(body)), body))
        newest_first = sorted(created, key=lambda pair: pair[0].ExpenseSortKey, reverse=True)
        for _ in range(QUESTIONS):
            wanted = data.draw(filters)
            limit = data.draw(st.integers(min_value=1, max_value=4))
            reads = data.draw(st.integers(min_value=1, max_value=3))
            _search_pages_match(access, ids, newest_first, wanted, limit, reads, len(specs))


def _matches(ids, wanted, body) -> bool:
    text = _plain(body["description"])
    if wanted["text"] and not all(w in text for w in _plain(wanted["text"]).split()):
        return False
    if wanted["category"] and (body["category"] or "").lower() != wanted["category"]:
        return False
    names = {body["payments"][0]["participantId"]} | {
        s["participantId"] for s in body["splits"]}
    if wanted["who"] is not None and ids[wanted["who"]] not in names:
        return False
    if wanted["min_amount"] is not None and body["amount"] < wanted["min_amount"]:
        return False
    return wanted["max_amount"] is None or body["amount"] <= wanted["max_amount"]


def _search_pages_match(access, ids, newest_first, wanted, limit, reads, rows):
    want = [row.ExpenseId for row, body in newest_first if _matches(ids, wanted, body)]

    def search(cursor):
        return expense_search.search_expenses(
            access, date_from=None, date_to=None, text=wanted["text"],
            category=wanted["category"],
            participant_id=ids[wanted["who"]] if wanted["who"] is not None else None,
            min_amount=wanted["min_amount"], max_amount=wanted["max_amount"],
            limit=limit, cursor=cursor, scope="t")

    if None not in (wanted["min_amount"], wanted["max_amount"]) \
            and wanted["min_amount"] > wanted["max_amount"]:
        with pytest.raises(Invalid):  # crossed bounds are refused, not an empty list
            search(None)
        return
    got, cursor, pages = [], None, 0
    old_reads, filtered_pages.MAX_READS = filtered_pages.MAX_READS, reads
    try:
        while True:
            page = search(cursor)
            assert len(page["items"]) <= limit
            got += [row.ExpenseId for row in page["items"]]
            cursor, pages = page["nextCursor"], pages + 1
            if cursor is None:
                break
            assert pages <= rows + 1  # every page reads at least one row
    finally:
        filtered_pages.MAX_READS = old_reads
    assert got == want


def test_no_page_reads_more_than_1000_rows():
    assert filtered_pages.MAX_READS * 100 <= 1000


def test_the_route_filters_and_a_short_page_carries_a_cursor(group):
    for index in range(6):
        group.add_expense(100 + index, description="Taxi" if index == 0 else f"Lunch {index}")
    taxi = group.get("/expenses", query_string={"q": "TÁXI", "limit": 1}).get_json()
    assert [row["description"] for row in taxi["items"]] == ["Taxi"]
    page = group.get("/expenses", query_string={"minAmount": 103, "maxAmount": 104,
                                                "limit": 5}).get_json()
    assert sorted(row["amount"] for row in page["items"]) == [103, 104]
    who = group.get("/expenses", query_string={"participantId": group.guests[0]}).get_json()
    assert len(who["items"]) == 6
    bad = group.get("/expenses", query_string={"minAmount": 5, "maxAmount": 1})
    assert bad.status_code == 400
    assert group.get("/expenses", query_string={"minAmount": "1.5"}).status_code == 400
