"""The ledger's door (issue 32 item 1): one typed ExpenseInput, built by every door; money
refusals that keep their amounts; the notes field end to end; one decimal -> minor place."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from app.errors import Invalid
from app.money.currencies import decimal_to_minor, exact_minor, format_minor, parse_minor
from app.ledger.expense_input import TEXT_MAX, ExpenseInput, ItemInput, PaymentInput, SplitInput
from app.money.refusals import MoneyInvalid
from app.ledger.schemas import ExpenseCreateSchema, ExpenseEdit, ExpensePatchSchema
from app.chat import proposals
from app.imports.model import EXPENSE, Item, Row
from app.ledger import expense_build, expense_input, foreign_currency
from tests.ledger.helpers import equal_body, stored_nets
from tests.support.expense_requests import as_create, as_edit

A, B = "3f1c2a9e-6b7d-4e8f-9a0b-1c2d3e4f5a6b", "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"


# --- the typed input ---------------------------------------------------------------------

def test_an_input_is_immutable_and_reads_back_as_the_draft_body_it_came_from():
    body = {"description": "Dinner", "date": "2026-11-28", "notes": "Table 4",
            "payments": [{"participantId": A, "amount": 900}],
            "items": [{"name": "Food", "amount": 900, "splitMode": "EQUAL",
                       "splits": [{"participantId": A}, {"participantId": B}]}]}
    made = ExpenseInput.from_draft(body)
    assert made.payments == (PaymentInput(A, 900),)
    assert made.items == (ItemInput("Food", 900, "EQUAL", (SplitInput(A), SplitInput(B))),)
    assert made.to_draft() == body and ExpenseInput.from_draft(made.to_draft()) == made
    with pytest.raises(AttributeError):
        made.notes = "changed"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError, dataclasses.FrozenInstanceError)):
        made.items[0].splits[0].value = 3  # type: ignore[misc]


def test_the_rest_schemas_load_an_input_and_an_edit():
    loaded = ExpenseCreateSchema().load(equal_body(A, 900, [A, B]))
    assert isinstance(loaded, ExpenseInput) and loaded.split_mode == "EQUAL"
    edit = ExpensePatchSchema().load({"version": 3, "notes": None})
    assert isinstance(edit, ExpenseEdit) and edit.version == 3
    assert edit.changes.sent == {"notes"} and edit.changes.notes is None


def test_an_import_row_becomes_an_input_with_its_notes():
    row = Row(line=2, kind=EXPENSE, date="2026-05-03", currency="EUR", description="Fado",
              payments=[("ines", 6000)], items=[Item("Fado", 6000, "EXACT",
                                                     [("marc", 2500), ("yuki", 3500)])],
              notes="n" * 600)
    made = row.expense_input({"ines": A, "marc": B})
    assert made.payments == (PaymentInput(A, 6000),) and made.currency == "EUR"
    assert made.items[0].splits == (SplitInput(B, 2500), SplitInput("yuki", 3500))
    assert made.notes == "n" * TEXT_MAX["notes"]
    assert expense_build.build(made).body.notes == made.notes


def test_an_edit_merges_typed_values_and_keeps_what_it_does_not_send():
    stored = expense_build.build(as_create({**equal_body(A, 900, [A, B]), "notes": "x",
                                            "category": "FOOD"})).body
    merged = expense_build.merge(stored, "2026-11-28", as_edit({"amount": 1000,
                                                                "payments": [{
                                                                    "participantId": A,
                                                                    "amount": 1000}]}))
    assert (merged.notes, merged.category, merged.items, merged.amount) == (
        "x", "FOOD", None, 1000)
    assert merged.splits == stored_items_splits(stored)
    cleared = expense_build.merge(stored, "2026-11-28", as_edit({"notes": None}))
    assert expense_build.build(cleared).body.notes is None


def stored_items_splits(body):
    return tuple(SplitInput(s.ParticipantId, int(s.Value)) for s in body.items[0].Splits)


# --- refusals keep their amounts -----------------------------------------------------------

def test_a_money_refusal_says_minor_units_and_keeps_amounts_and_currency():
    body = {**equal_body(A, 1000, [A, B]), "payments": [{"participantId": A, "amount": 900}]}
    with pytest.raises(MoneyInvalid) as refused:
        expense_build.build(as_create(body), "JPY")
    error = refused.value
    assert error.message == "payments sum to 900 but the expense amount is 1000"
    assert error.details == {"payments": [error.message]}
    assert (error.field, error.currency, error.amounts["sum"].minor) == ("payments", "JPY", 900)
    said = error.said(lambda minor, code: f"{format_minor(minor, code)} {code}")
    assert said.message == "payments sum to 900 JPY but the expense amount is 1000 JPY"


def test_the_rest_reply_of_a_money_refusal_is_unchanged(group):
    body = {**equal_body(group.me, 1000, group.everyone),
            "payments": [{"participantId": group.me, "amount": 900}]}
    reply = group.post("/expenses", body)
    assert reply.status_code == 400
    assert reply.get_json()["error"] == {
        "code": "VALIDATION_ERROR",
        "message": "payments sum to 900 but the expense amount is 1000",
        "details": {"payments": ["payments sum to 900 but the expense amount is 1000"]}}


# --- notes end to end (REST) ---------------------------------------------------------------

def test_notes_are_stored_returned_edited_cleared_and_exported(group):
    made = group.post("/expenses", {**equal_body(group.me, 900, group.everyone),
                                    "notes": "Paid with the shared card"}).get_json()
    assert made["notes"] == "Paid with the shared card"
    path = f"/expenses/{made['expenseId']}"
    assert group.get(path).get_json()["notes"] == "Paid with the shared card"
    nets = stored_nets(group.group_id)
    edited = group.patch(path, {"version": 1, "notes": "Card ending 42"}).get_json()
    assert (edited["notes"], edited["amount"]) == ("Card ending 42", 900)
    assert stored_nets(group.group_id) == nets  # an edit of notes moves no money
    exported = group.get("/export?format=json").get_json()["expenses"]
    assert [e["notes"] for e in exported] == ["Card ending 42"]
    cleared = group.patch(path, {"version": 2, "notes": None}).get_json()
    assert cleared["notes"] is None
    plain = group.post("/expenses", equal_body(group.me, 100, group.everyone)).get_json()
    assert plain["notes"] is None


def test_notes_past_the_limit_are_400(group):
    reply = group.post("/expenses", {**equal_body(group.me, 900, group.everyone),
                                     "notes": "x" * (TEXT_MAX["notes"] + 1)})
    assert reply.status_code == 400 and "notes" in reply.get_json()["error"]["details"]


# --- one input type, loaded straight from the REST body ----------------------------------

def test_the_input_type_and_its_forms_rule_are_one_ledger_module_schemas_may_load():
    """One module, one name: the type every door produces and the items-or-shorthand rule
    live in app.ledger.expense_input, a leaf the request schemas may import; the build that
    judges it is the ledger's door (app.ledger.expense_build); app.money keeps only
    arithmetic."""
    import ast
    import importlib.util

    assert ExpenseInput.__module__ == PaymentInput.__module__ == expense_input.mixed.__module__
    assert ExpenseInput.__module__ == "app.ledger.expense_input"
    assert expense_build.build.__module__ == "app.ledger.expense_build"
    for gone in ("app.money.expense_input", "app.money.expense_forms"):
        assert importlib.util.find_spec(gone) is None, gone
    tree = ast.parse(open(expense_input.__file__).read())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "typing", "app.errors", "app.dates"}, imported


def test_the_ledger_services_take_only_the_typed_input():
    """create, edit and build take an ExpenseInput and nothing else: no dict is read into
    one inside the ledger (every door loads or builds its input before it calls)."""
    import inspect

    from app.ledger import expenses

    for function, name in ((expenses.create_expense, "expense"),
                           (expenses.update_expense, "patch"),
                           (expense_build.build, "expense")):
        assert inspect.signature(function).parameters[name].annotation == "ExpenseInput", \
            function.__name__
    assert not hasattr(expense_input, "as_input")


# Drafts stored before this change (a chat draft's Body, a receipt scan's "draft"), byte for
# byte as the tables hold them: they must read back and write out unchanged.
STORED_DRAFTS = [
    '{"amount": 4250, "currency": "USD", "date": "2026-11-28", "description": "Taxi", '
    '"exchangeRate": "0.92", "payments": [{"amount": 4250, "participantId": "%s"}], '
    '"splitMode": "EQUAL", "splits": [{"participantId": "%s"}, {"participantId": "%s"}]}'
    % (A, A, B),
    '{"date": "2026-12-01", "description": "Corner Shop", "items": [{"amount": 1299, '
    '"name": "Corner Shop", "splitMode": "EQUAL", "splits": [{"participantId": "%s", '
    '"value": 1}, {"participantId": "%s", "value": 1}]}], "payments": [{"amount": 1299, '
    '"participantId": "%s"}]}' % (A, B, A),
]


@pytest.mark.parametrize("stored", STORED_DRAFTS)
def test_a_stored_draft_reads_into_the_input_and_writes_back_the_same_json(stored):
    import json

    expense = ExpenseInput.from_draft(json.loads(stored))
    assert isinstance(expense, ExpenseInput) and expense.payments[0] == PaymentInput(
        A, json.loads(stored)["payments"][0]["amount"])
    assert json.dumps(expense.to_draft(), sort_keys=True) == stored
    expense_build.build(expense, "EUR")  # and the ledger takes it as it is


def test_a_receipts_stored_draft_reaches_confirm_as_the_typed_input():
    """The scan's draft is read once, where confirm takes it (attaching.draft_of), into the
    ExpenseInput the ledger's create takes; no dict goes further."""
    import json

    from app.receipts import attaching
    from models.groups.receipts import SCAN_DONE, Receipt

    scan = {"engine": "text", "merchant": "Corner Shop", "draft": json.loads(STORED_DRAFTS[1])}
    receipt = Receipt("g", "r", ScanStatus=SCAN_DONE, ScanResult=json.dumps(scan))
    assert attaching.draft_of(receipt) == ExpenseInput.from_draft(scan["draft"])
    assert isinstance(attaching.draft_of(receipt), ExpenseInput)
    no_draft = Receipt("g", "r", ScanStatus=SCAN_DONE, ScanResult=json.dumps(
        {**scan, "draft": None}))
    assert attaching.draft_of(no_draft) is None


def test_the_draft_body_is_read_and_written_only_at_a_drafts_edge():
    """One reader and one writer of the stored draft shape, on the type; services call
    them only where a draft is stored or read back (chat: drafted, proposed, confirmed;
    receipts: scanned, confirmed), never to pass a dict on."""
    import pathlib
    import re

    app = pathlib.Path(expense_input.__file__).resolve().parents[1]
    calls = {"from_draft": set(), "to_draft": set()}
    for path in app.rglob("*.py"):
        for name, seen in calls.items():
            if re.search(rf"\.{name}\(", path.read_text()):
                seen.add(str(path.relative_to(app)))
    assert calls == {"from_draft": {"chat/proposals.py", "chat/confirm.py",
                                    "receipts/attaching.py"},
                     "to_draft": {"chat/drafting.py", "receipts/scanning.py"}}
    assert not hasattr(expense_input, "from_wire") and not hasattr(expense_input, "to_wire")


def test_the_rest_body_loads_straight_into_the_ledgers_input_under_its_own_names():
    """camelCase only at the edge: the schema's data_keys read the API names, and what it
    hands over is the typed input, every part typed, ``sent`` in ExpenseInput's names."""
    body = {**equal_body(A, 900, [A, B]), "currency": "USD", "exchangeRate": "0.9",
            "groupAmount": 810}
    loaded = ExpenseCreateSchema().load(body)
    assert loaded.payments == (PaymentInput(A, 900),)
    assert loaded.splits == (SplitInput(A), SplitInput(B))
    assert (loaded.split_mode, loaded.exchange_rate,
            loaded.group_amount) == ("EQUAL", "0.9", 810)
    assert loaded.sent == {"description", "date", "payments", "amount", "split_mode", "splits",
                           "currency", "exchange_rate", "group_amount"}
    itemised = ExpenseCreateSchema().load({
        "description": "Dinner", "payments": [{"participantId": A, "amount": 900}],
        "items": [{"amount": 900, "splitMode": "SHARES",
                   "splits": [{"participantId": A, "value": 2}]}]})
    assert itemised.items == (ItemInput(None, 900, "SHARES", (SplitInput(A, 2),)),)


def test_a_patch_names_what_it_sent_as_the_merge_reads_it():
    """An edit that sends a new rate is told apart from one that does not by ``sent``,
    in the names the merge reads: the recorded rate is dropped only when a rate is sent."""
    stored = expense_build.build(ExpenseCreateSchema().load(
        {**equal_body(A, 900, [A, B]), "currency": "USD", "exchangeRate": "0.9"}), "EUR").body
    rated = ExpensePatchSchema().load({"version": 1, "exchangeRate": "0.5"}).changes
    assert rated.sent == {"exchange_rate"}
    assert expense_build.merge(stored, "2026-11-28", rated).exchange_rate == "0.5"
    renamed = ExpensePatchSchema().load({"version": 1, "description": "Lunch"}).changes
    kept = expense_build.merge(stored, "2026-11-28", renamed)
    assert (kept.exchange_rate, kept.group_amount) == ("0.9", stored.group_amount)


def test_the_conversion_reads_the_inputs_own_rate_fields():
    """No API-named dict between the input and its conversion (the old _rate_request)."""
    rate = foreign_currency.convert(ExpenseInput.of(currency="USD", exchange_rate="0.9"),
                                    1000, "EUR", "2026-11-28")
    assert (rate.currency, rate.exchange_rate, rate.group_amount) == ("USD", "0.9", 900)


# --- limits defined once -------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(TEXT_MAX))
def test_the_rest_schema_and_a_chat_draft_read_the_same_text_limits(name):
    """Each text field's limit is declared once (ExpenseInput's TEXT_MAX): the REST schema's
    Length validator and a chat draft's check both hold a field to it."""
    [length] = [v for v in ExpenseCreateSchema().fields[name].validators if hasattr(v, "max")]
    assert length.max == TEXT_MAX[name]
    body = {**equal_body(A, 900, [A]), name: "x" * (TEXT_MAX[name] + 1)}
    with pytest.raises(Invalid, match=name):
        proposals.validate_body(body, {A})
    assert getattr(proposals.validate_body({**body, name: "x" * TEXT_MAX[name]}, {A}),
                   name) == "x" * TEXT_MAX[name]


# --- decimal <-> minor units, once ---------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(currency=st.sampled_from(["JPY", "EUR", "BHD"]),
       minor=st.integers(min_value=-10**15, max_value=10**15),
       extra=st.integers(min_value=0, max_value=9))
def test_decimal_to_minor_is_exact_within_the_currency_and_half_even_past_it(currency, minor,
                                                                             extra):
    text = format_minor(minor, currency)
    assert decimal_to_minor(Decimal(text), currency) == (minor, True)
    assert exact_minor(Decimal(text), currency) == parse_minor(text, currency) == minor
    longer = Decimal(text + ("" if "." in text else ".") + "0" * 1 + str(extra))
    rounded, exact = decimal_to_minor(longer, currency)
    assert exact == (extra == 0) and rounded == minor  # < half a minor unit: rounds back
    assert exact_minor(longer, currency) == (minor if extra == 0 else None)
