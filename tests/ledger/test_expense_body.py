"""The expense body has one definition (ExpenseBody), and every path keeps all its fields.

Structural half: the definition's fields, their stored attributes (on Expense and on a
template's ExpenseTemplateMap) and their export columns are the same set, and no service
rebuilds a body attribute by attribute outside expense_body.py. Path half: each field of the
definition survives create -> row -> export, a partial edit, template -> occurrence, and a
transfer's rewrite (which changes the participant fields only). A field added to ExpenseBody
but dropped by any of these fails here."""
from __future__ import annotations

import csv
import io
import pathlib
import re
from datetime import datetime, timezone

import pytest
from pynamodb.attributes import MapAttribute

from app.money.currencies import format_minor
from app.groups import transfer
from app.ledger import expense_body, expense_build, expense_input, expenses
from app.imports import export
from app.ledger.expense_input import ExpenseInput
from app.ledger.expense_body import ExpenseBody
from app.recurring import schedule, templates
from app.recurring.tick import run_bucket
from models.groups import (Expense, ExpenseTemplateMap, ItemMap, PaymentMap, RecurringExpense,
                           Settlement, SplitMap)
from tests.ledger.helpers import make_group, make_user
from tests.recurring.helpers import as_request, recorded
from tests.support.expense_requests import as_create, as_edit

APP = pathlib.Path(__file__).resolve().parents[2] / "app"
# The body's own attributes (those its nested maps and settlements share, like Amount, aside).
_OWN = sorted(set(expense_body.ATTRIBUTES.values())
              - {name for shape in (ItemMap, PaymentMap, SplitMap, Settlement)
                 for name in shape.get_attributes()})
BODY_KEYWORD = re.compile(r"\b(" + "|".join(_OWN) + r")\s*=[^=]")


def plain(value):
    """A body (or part of one) as plain Python values, comparable field by field."""
    if isinstance(value, ExpenseBody):
        return {name: plain(getattr(value, name)) for name in ExpenseBody._fields}
    if isinstance(value, MapAttribute):
        return {key: plain(item) for key, item in value.attribute_values.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def full_body(ids, **extra) -> dict:
    """A request naming every field of the body: two items, a category, notes, two payers,
    a tip and a discount."""
    owner, a, b = ids
    return {"description": "Groceries", "category": "FOOD", "date": "2026-11-28", "kind": "INCOME",
            "notes": "Market stall by the station; receipt in the blue folder",
            "extras": [{"name": "tip", "amount": 150}, {"name": "discount", "amount": -50}],
            "payments": [{"participantId": owner, "amount": 800},
                         {"participantId": a, "amount": 300}],
            "items": [{"name": "Bread", "amount": 400, "splitMode": "EQUAL",
                       "splits": [{"participantId": owner}, {"participantId": a},
                                  {"participantId": b}]},
                      {"name": "Wine", "amount": 600, "splitMode": "SHARES",
                       "splits": [{"participantId": a, "value": 1},
                                  {"participantId": b, "value": 2}]}], **extra}


@pytest.fixture
def group(aws, monkeypatch):
    monkeypatch.setattr(schedule, "window_now",
                        lambda: datetime(2025, 12, 31, 12, tzinfo=timezone.utc))
    return make_group(make_user("body@example.com"), guests=2)


# --- the one definition ----------------------------------------------------------------

def test_every_field_has_a_stored_attribute_and_an_export_column_on_every_row_kind():
    fields = set(ExpenseBody._fields)
    assert set(expense_body.ATTRIBUTES) == fields
    assert set(export.EXPORT) == fields
    plain_fields = set(expense_build.PLAIN) - {"date"}
    assert plain_fields | set(expense_body.PARTICIPANT_FIELDS) <= fields
    assert plain_fields <= set(expense_input.REQUEST_FIELDS)
    # Every stored field comes in through the door's ExpenseInput (the amount as the sum of
    # its items), and reads back from a stored body (input_of, what an edit merges over).
    assert fields <= set(ExpenseInput._fields)
    for model in (Expense, ExpenseTemplateMap):
        assert set(expense_body.ATTRIBUTES.values()) <= set(model.get_attributes()), model


def test_each_body_field_names_its_stored_attribute_in_one_declared_table():
    """No rule derives a stored name from a field's (the old regex): the table beside the
    attributes says each pair, in ExpenseBody's order, and names every attribute once."""
    from pynamodb.attributes import Attribute
    from models.groups import BODY_FIELDS, ExpenseBodyAttributes

    declared = [name for name, value in vars(ExpenseBodyAttributes).items()
                if isinstance(value, Attribute)]
    assert list(BODY_FIELDS.values()) == declared
    assert expense_body.ATTRIBUTES == BODY_FIELDS and ExpenseBody._fields == tuple(BODY_FIELDS)
    assert "import re" not in (APP / "ledger" / "expense_body.py").read_text()


def test_an_expense_row_and_a_templates_map_store_the_body_alike():
    """One declaration (ExpenseBodyAttributes): the body's stored form, names and values, is
    the same on an Expense row and in a template's Template map."""
    ids = tuple(f"00000000-0000-4000-8000-00000000000{n}" for n in range(3))
    body = expense_build.build(as_create(full_body(ids, currency="USD", exchangeRate="0.9")),
                               "EUR").body
    row = Expense("g", "s", Date="2026-11-28", **body.to_row_attributes()).serialize(
        null_check=False)
    template = RecurringExpense("g", "r", Template=ExpenseTemplateMap(
        **body.to_template_attributes())).serialize(null_check=False)["Template"]["M"]
    # Every field the body sets (a client's rate has no RateDate) and no other.
    assert set(template) == {attribute for name, attribute in expense_body.ATTRIBUTES.items()
                             if getattr(body, name) is not None}
    assert {name: row[name] for name in template} == template
    # The nested maps keep their one-letter names (models.groups.ledger, issue 33).
    assert set(template["Payments"]["L"][0]["M"]) == {"p", "a", "g"}


def test_no_service_rebuilds_the_body_attribute_by_attribute():
    # Every area's modules (app/services/ was split into app/<area>/: scanning it found
    # nothing to judge).
    modules = [path for path in sorted(APP.rglob("*.py")) if path.name != "expense_body.py"]
    assert len(modules) > 100 and any(path.parent.name == "ledger" for path in modules)
    offenders = [f"{path.relative_to(APP)}:{number}"
                 for path in modules
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if BODY_KEYWORD.search(line)]
    assert sorted(set(offenders) - set(OTHER_ROWS)) == []
    assert set(OTHER_ROWS) <= set(offenders)  # an entry whose line is gone goes too


# Lines that name a body attribute for a row of another kind, each with why.
OTHER_ROWS = {"insight/projection.py:124": "the projection's own MyEntry.Description and "
                                            "Currency, copied from the stored row, not a body "
                                            "rebuilt",
              "insight/projection.py:125": "the projection's own MyEntry.Category, copied from "
                                            "the stored row, not a body rebuilt",
              "ledger/trash.py:46": "the trash row's own Description (what the trash list "
                                    "shows), copied from the deleted row, not a body rebuilt"}


# --- every path keeps every field ------------------------------------------------------

def test_create_stores_every_field_and_the_export_shows_them(group):
    access, ids = group
    request = full_body(ids)
    expected = expense_build.build(as_create(request), access.group.Currency).body
    row = expenses.load_expense(access.group_id,
                                expenses.create_expense(access, as_create(request)).ExpenseId)
    assert plain(ExpenseBody.from_row(row)) == plain(expected)

    table = list(csv.reader(io.StringIO(export.export_csv(access))))
    header, line = table[0], table[1]
    cells = dict(zip(header, line, strict=True))
    assert set(export.body_cells(expected)) == {c for c in export.EXPORT.values() if c}
    # Each exported field's cell shows the stored value (money in the group's currency).
    for name, column in export.EXPORT.items():
        if column and name in expense_body.RATE_FIELDS:
            assert column not in cells  # a one-currency group's export has no rate columns
        elif column:
            value = expected.kind_shown if name == "kind" else getattr(expected, name)
            # The body is an INCOME: its Cost is shown negative.
            assert cells[column] == (format_minor(-value, access.group.Currency)
                                     if name == "amount" else str(value)), name


def test_a_partial_edit_keeps_every_field_it_does_not_send(group):
    access, ids = group
    made = expenses.create_expense(access, as_create(full_body(ids)))
    before = plain(ExpenseBody.from_row(made))
    edited = expenses.update_expense(access, made.ExpenseId, 1, as_edit({"description": "Market"}))
    after = plain(ExpenseBody.from_row(expenses.load_expense(access.group_id, edited.ExpenseId)))
    assert after == {**before, "description": "Market"}


def test_an_occurrence_records_the_templates_whole_body(group):
    access, ids = group
    body = {key: value for key, value in full_body(ids).items() if key != "date"}
    made = templates.create_template(access, as_request({**body, "frequency": "DAILY",
                                                         "startDate": "2026-01-01", "count": 1}))
    template = templates.load_template(access.group_id, made.RecurringId)
    run_bucket(RecurringExpense.bucket_of(access.group_id), "2026-01-02T00:00:00Z")
    [occurrence] = recorded(access.group_id, made.RecurringId)
    assert plain(ExpenseBody.from_row(occurrence)) == plain(ExpenseBody.from_template(template))
    assert plain(ExpenseBody.from_template(template)) == plain(expense_build.build(
        as_create({**body, "date": "2026-01-01"}), access.group.Currency).body)


def test_a_transfer_rewrites_the_participant_fields_and_keeps_every_other(group):
    access, ids = group
    owner, source, target = ids
    made = expenses.create_expense(access, as_create(full_body(ids)))
    recurring = templates.create_template(
        access, as_request({**{k: v for k, v in full_body(ids).items() if k != "date"},
                            "frequency": "MONTHLY", "startDate": "2026-01-01"}))
    before = [ExpenseBody.from_row(made),
              ExpenseBody.from_template(templates.load_template(access.group_id,
                                                                recurring.RecurringId))]
    transfer.transfer_participant(access, source, target)
    after = [ExpenseBody.from_row(expenses.load_expense(access.group_id, made.ExpenseId)),
             ExpenseBody.from_template(templates.load_template(access.group_id,
                                                               recurring.RecurringId))]
    kept = [name for name in ExpenseBody._fields if name not in expense_body.PARTICIPANT_FIELDS]
    for old, new in zip(before, after, strict=True):
        assert {n: plain(getattr(new, n)) for n in kept} == \
            {n: plain(getattr(old, n)) for n in kept}
        assert source not in new.participant_ids and target in new.participant_ids
        assert plain(new) != plain(old)  # the participant fields did change
