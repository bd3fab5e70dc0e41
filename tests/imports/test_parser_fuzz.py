"""Fuzzing POST /imports (issue 30 item 5): random text, near-valid CSV records and random
JSON documents in each format's shape answer 202 or a 400 in the error envelope, never
anything else. The queue holds each started import (held_imports): only the POST's own
parse and checks are under test here; the worker's failures are reported on the import."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from app.imports.parse import FORMATS
from tests.imports.test_hostile_files import COSPEND_BILLS, COSPEND_MEMBERS, SPLIIT_HEADER

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.filter_too_much])

# Cells that have broken parsers: numbers of every shape, dates and timestamps, names with
# refused characters, formula starts, separators.
TOKENS = st.sampled_from([
    "", "0", "1", "-1", "10.00", "-10.00", "0.005", "1,5", "NaN", "nan", "inf", "-inf",
    "1e20", "1E-5", "9" * 40, "-" + "9" * 35, "0." + "3" * 40, "2026-01-01", "2026-02-30",
    "2026-01-01T10:00:00Z", "1767225600", "9" * 20, "-1767225600", "EUR", "JPY", "XXX", "€",
    "usd", "Ana", "Bea", "Ana, Bea", "Ana,Bea", "Trip\u202egnp.exe\u200b", "=1+1", "'=x",
    "Payment", "Zahlung", "Yes", "No", "EVENLY", "BY_SHARES", "n", "y", "-11", "\x00",
    "\ufeff", '"', '""', "\n", "\r\n", " ", "Cafe\u0301", "c" * 60])
CELLS = st.lists(st.one_of(TOKENS, st.text(max_size=8)), max_size=14)
HEADERS = {
    "splitwise-csv": "Date,Description,Category,Cost,Currency,Ana,Bea\n",
    "spliit-csv": SPLIIT_HEADER,
    "ihatemoney-csv": "date,what,bill_type,amount,currency,payer_name,payer_weight,owers\n",
    "cospend-csv": COSPEND_MEMBERS + COSPEND_BILLS,
}


def _csv(rows) -> str:
    return "".join(",".join(json.dumps(c) if "," in c or '"' in c else c for c in r) + "\n"
                   for r in rows)


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**40, max_value=10**40),
                    st.floats(allow_nan=False), TOKENS, st.text(max_size=10))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=20)


def _fields(keys, values=JSON_VALUES):
    """An object with some of ``keys`` (values often well-typed, sometimes anything)."""
    return st.dictionaries(st.sampled_from(keys), values, max_size=len(keys))


BILL = _fields(["date", "what", "bill_type", "amount", "currency", "payer_name",
                "payer_weight", "owers"], st.one_of(TOKENS, SCALARS,
                                                    st.lists(TOKENS, max_size=3)))
SPLIIT_EXPENSE = _fields(["id", "expenseDate", "title", "category", "amount", "paidById",
                          "paidFor", "isReimbursement", "splitMode", "originalAmount",
                          "originalCurrency", "conversionRate"], st.one_of(
    SCALARS, st.lists(st.fixed_dictionaries({"participantId": st.sampled_from(["a", "b", "z"]),
                                             "shares": SCALARS}), max_size=3)))
TAILSPEND_EXPENSE = _fields(["expenseId", "date", "currency", "description", "category",
                             "payments", "items", "exchangeRate", "groupAmount"], st.one_of(
    SCALARS, st.sampled_from(["e1", "e2", "USD", "auto", "0.9"]), st.lists(_fields(
        ["participantId", "amount", "name", "splitMode", "splits"]), max_size=3)))
TAILSPEND_COMMENT = _fields(["expenseId", "authorParticipantId", "body", "createdAt",
                             "editedAt"], st.one_of(SCALARS, st.sampled_from(["e1", "a", "b"])))
TAILSPEND_TEMPLATE = _fields(["description", "amount", "currency", "payments", "items",
                              "exchangeRate", "groupAmount", "frequency", "interval",
                              "startDate", "endDate", "count", "timeZone", "paused",
                              "nextDate", "lastDate"], st.one_of(
    SCALARS, st.sampled_from(["MONTHLY", "2027-01-31", "Europe/Paris", "auto"]),
    st.lists(_fields(["participantId", "amount", "name", "splitMode", "splits"]),
             max_size=3)))
DOCUMENTS = {
    "ihatemoney-json": st.lists(st.one_of(BILL, JSON_VALUES), max_size=4),
    "spliit-json": st.fixed_dictionaries({
        "name": SCALARS, "currency": TOKENS, "participants": st.just(
            [{"id": "a", "name": "Ana"}, {"id": "b", "name": "Bea"}]),
        "expenses": st.lists(SPLIIT_EXPENSE, max_size=4)}),
    "tailspend-json": st.fixed_dictionaries({
        "group": st.one_of(JSON_VALUES, _fields(["name", "currency"])),
        "participants": st.just([{"participantId": "a", "displayName": "Ana"},
                                 {"participantId": "b", "displayName": "Bea"}]),
        "expenses": st.lists(TAILSPEND_EXPENSE, max_size=3),
        "settlements": st.lists(_fields(["date", "payerId", "payeeId", "amount", "note",
                                         "currency", "exchangeRate", "groupAmount"]),
                                max_size=3),
        "comments": st.lists(TAILSPEND_COMMENT, max_size=3),
        "recurring": st.lists(TAILSPEND_TEMPLATE, max_size=2)}),
}


def _answered(importer, file_format: str, content: str) -> None:
    if not content:
        content = " "
    reply = importer.start(file_format, content)
    assert reply.status_code in (202, 400), (file_format, content[:300], reply.get_json())
    if reply.status_code == 400:
        assert reply.get_json()["error"]["code"] == "VALIDATION_ERROR"


@FUZZ
@given(file_format=st.sampled_from(FORMATS), content=st.text(max_size=200))
def test_random_text_in_any_format(importer, held_imports, file_format, content):
    _answered(importer, file_format, content)


@FUZZ
@given(file_format=st.sampled_from(sorted(HEADERS)), rows=st.lists(CELLS, max_size=6))
def test_csv_records_under_each_formats_header(importer, held_imports, file_format, rows):
    _answered(importer, file_format, HEADERS[file_format] + _csv(rows))


@FUZZ
@given(file_format=st.sampled_from(sorted(HEADERS)), rows=st.lists(CELLS, max_size=6))
def test_csv_records_with_their_own_header(importer, held_imports, file_format, rows):
    _answered(importer, file_format, _csv(rows))


@FUZZ
@given(data=st.data(), file_format=st.sampled_from(sorted(DOCUMENTS)))
def test_json_documents_in_each_formats_shape(importer, held_imports, data, file_format):
    document = data.draw(st.one_of(DOCUMENTS[file_format], JSON_VALUES))
    _answered(importer, file_format, json.dumps(document))
