"""The "items or shorthand" rule reads the same everywhere it is applied: the request
schemas, the JSON Schema in /openapi.json, the add_expense tool (its description, and the
server's validation of its arguments: the tool's inputSchema is flat, since hosts refuse a
root anyOf) and the ledger service. Every combination of the four form fields is tried on
each."""
from __future__ import annotations

from itertools import combinations

import jsonschema
import pytest
from marshmallow import ValidationError

from app.errors import Invalid
from app.ledger.schemas import ExpenseCreateSchema, ExpensePatchSchema
from app.ledger import expense_build, expense_input
from app.ledger.expense_input import ExpenseInput

PID = "11111111-1111-4111-8111-111111111111"
NAMES = ("items", "amount", "splitMode", "splits")
SUBSETS = [frozenset(c) for n in range(len(NAMES) + 1) for c in combinations(NAMES, n)]


def whole(sent: frozenset) -> bool:
    """api.md's rule: items (an amount may ride along), all of amount + splitMode + splits, or
    the amount alone (the group's defaultSplit shares it)."""
    if "items" in sent:
        return not sent & {"splitMode", "splits"}
    return sent >= {"amount", "splitMode", "splits"} or sent == {"amount"}


def built(sent: frozenset) -> bool:
    """What build itself accepts: the amount alone reaches it only completed by the group's
    default split (app.ledger.default_split, applied by every create before build)."""
    return whole(sent) and sent != {"amount"}


def _body(sent: frozenset, money) -> dict:
    split = {"participantId": PID}
    values = {"items": [{"amount": money, "splitMode": "EQUAL", "splits": [split]}],
              "amount": money, "splitMode": "EQUAL", "splits": [split]}
    return {"description": "Dinner", "date": "2026-12-01",
            "payments": [{"participantId": PID, "amount": money}],
                         **{name: values[name] for name in sent}}


def _input_names(sent: frozenset) -> set:
    """The API names sent, as ExpenseInput names them (what the rule reads)."""
    return {"split_mode" if name == "splitMode" else name for name in sent}


def _rest(sent: frozenset) -> dict:
    return _body(sent, 100)


def _loads(schema, body: dict) -> bool:
    try:
        schema.load(body)
        return True
    except ValidationError:
        return False


def _valid(schema: dict, body: dict) -> bool:
    try:
        jsonschema.validate(body, schema)
        return True
    except jsonschema.ValidationError:
        return False


def _service(body: dict) -> bool:
    try:
        # Read as a chat draft reaches the ledger (no schema in front): the rule is build's own.
        expense_build.build(ExpenseInput.from_draft(body))
        return True
    except Invalid as error:
        # Refused by the rule itself, not by some later step tripping over a missing field.
        assert error.message in (expense_input.BOTH, expense_input.NEITHER), error.message
        return False


@pytest.mark.parametrize("sent", SUBSETS, ids=lambda s: "+".join(sorted(s)) or "none")
def test_schema_and_service_apply_one_rule(sent):
    body = _rest(sent)
    assert _loads(ExpenseCreateSchema(), body) is whole(sent)
    assert _service(body) is built(sent)
    # An edit may send any part, never both forms.
    patch = {**body, "version": 1}
    assert _loads(ExpensePatchSchema(), patch) is not expense_input.mixed(_input_names(sent))


@pytest.fixture
def documents(client, app):
    from app.mcp import registry

    openapi = client.get("/openapi.json").get_json()
    # The body schema is a plain object (typed generators type it); the either/or is served
    # beside it as x-body-rule, the JSON Schema the server's check obeys.
    body = openapi["components"]["schemas"]["ExpenseCreate"]
    assert not {"anyOf", "oneOf", "not"} & set(body)
    create = {"allOf": [{"$ref": "#/components/schemas/ExpenseCreate"}, body["x-body-rule"]],
              "components": openapi["components"]}
    with app.app_context():
        tool = next(t for t in registry.listing() if t["name"] == "add_expense")
    return create, tool["inputSchema"]


def test_the_json_schemas_state_the_same_rule(documents):
    create, tool = documents
    for sent in SUBSETS:
        assert _valid(create, _rest(sent)) is whole(sent), sorted(sent)
        # Flat (no root combinator, which Anthropic's API refuses): it admits every form...
        assert _valid(tool, {**_body(sent, "1.00"), "groupId": PID}), sorted(sent)


@pytest.mark.parametrize("sent", SUBSETS, ids=lambda s: "+".join(sorted(s)) or "none")
def test_the_tool_says_the_rule_and_its_server_applies_it(app, sent):
    from app.mcp import registry, tools_write

    with app.app_context():
        tool = next(t for t in registry.listing() if t["name"] == "add_expense")
    assert expense_input.EITHER_FORM in tool["description"]
    try:  # ...and the server refuses what the rule refuses, before any service runs
        tools_write.expense_body({**_body(sent, "1.00"), "groupId": PID}, "EUR")
        accepted = True
    except Invalid:
        accepted = False
    assert accepted is whole(sent)
