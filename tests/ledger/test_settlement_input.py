"""One settlement type (issue 43, item 3): the REST body loads straight into the ledger's
SettlementInput, MCP's record_settlement builds the same one, and the service takes it."""
from __future__ import annotations

import pytest
from marshmallow import ValidationError

from app.ledger.schemas import SettlementCreateSchema, SettlementEdit, SettlementPatchSchema
from app.mcp.schemas import RecordSettlementArgs
from app.mcp.tools_write import settlement_input
from app.money.settlement_input import SettlementInput

PAYER, PAYEE = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b", "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d"
GROUP = "11111111-2222-4333-8444-555555555555"


def test_the_rest_create_body_loads_straight_into_a_settlement_input():
    loaded = SettlementCreateSchema().load({
        "payerId": PAYER, "payeeId": PAYEE, "amount": 2500, "date": "2026-11-30",
        "note": "cash", "currency": "USD", "exchangeRate": "0.92"})
    assert loaded == SettlementInput(payer_id=PAYER, payee_id=PAYEE, amount=2500,
                                     date="2026-11-30", note="cash", currency="USD",
                                     exchange_rate="0.92", sent=loaded.sent)
    assert loaded.sent == {"payer_id", "payee_id", "amount", "date", "note", "currency",
                           "exchange_rate"}


def test_the_rest_edit_loads_as_its_version_and_the_fields_it_sent():
    edit = SettlementPatchSchema().load({"version": 3, "note": None, "groupAmount": 1200})
    assert edit == SettlementEdit(3, SettlementInput.of(note=None, group_amount=1200))
    assert edit.changes.sent_or("note", "kept") is None  # sent as null: cleared
    assert edit.changes.sent_or("payer_id", "kept") == "kept"  # not sent: kept


def test_camel_case_lives_only_in_the_schema_data_keys():
    fields = SettlementCreateSchema().fields
    assert set(fields) == set(SettlementInput._fields) - {"sent"}
    assert {name: f.data_key for name, f in fields.items() if f.data_key} == {
        "payer_id": "payerId", "payee_id": "payeeId", "exchange_rate": "exchangeRate",
        "group_amount": "groupAmount"}
    with pytest.raises(ValidationError) as refused:  # the wire names are the only names
        SettlementCreateSchema().load({"payer_id": PAYER, "payee_id": PAYEE, "amount": 1})
    assert "payerId" in refused.value.messages and "payer_id" in refused.value.messages


def test_mcp_record_settlement_builds_the_same_input_as_the_rest_body():
    args = RecordSettlementArgs().load({
        "groupId": GROUP, "payerId": PAYER, "payeeId": PAYEE, "amount": "25.00",
        "currency": "USD", "groupAmount": "23.10", "note": "cash", "idempotencyKey": "k"})
    rest = SettlementCreateSchema().load({
        "payerId": PAYER, "payeeId": PAYEE, "amount": 2500, "currency": "USD",
        "groupAmount": 2310, "note": "cash"})
    built = settlement_input(args, "USD", "EUR")
    assert isinstance(built, SettlementInput) and built == rest
