"""Stateful proof: after any sequence of money writes, BALANCE#v1 equals a recomputation.

A hypothesis RuleBasedStateMachine drives expense and settlement creates, edits (current
and stale versions) and deletes, comments, and writes that must be refused, through the
services against a fresh moto DynamoDB per example. After every step the materialised
nets must equal the nets recomputed from every row, sum to zero, match the counts, and
match an independent model kept by the test."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from moto import mock_aws

import models
from app.errors import Conflict, Invalid
from app.money.splits import net_effects
from app.services.ledger import balances, comments, expense_delete, expenses, settlements
from tests.ledger.helpers import assert_balance_matches_rows, make_group, make_user
from tests.support.tables import create_all_tables

STAGE = "stateful"
MODES = ("EQUAL", "EXACT", "PERCENT", "SHARES")
UNKNOWN = "00000000-0000-4000-8000-00000000dead"


def composition(data, total: int, parts: int) -> list:
    """``parts`` positive ints summing to ``total`` (total >= parts)."""
    cuts = sorted(data.draw(st.sets(st.integers(1, total - 1), min_size=parts - 1,
                                    max_size=parts - 1))) if parts > 1 else []
    bounds = [0] + cuts + [total]
    return [b - a for a, b in itertools.pairwise(bounds)]


def expense_body(data, ids: list) -> dict:
    """A random valid expense body: 1-3 items of random modes, 1-3 payers."""
    items = []
    for index in range(data.draw(st.integers(1, 3))):
        amount = data.draw(st.integers(1, 10**6))
        mode = data.draw(st.sampled_from(MODES))
        people = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=len(ids),
                                    unique=True))
        if mode == "EQUAL":
            values = [None] * len(people)
        elif mode == "EXACT":
            people = people[:amount]
            values = composition(data, amount, len(people))
        elif mode == "PERCENT":
            values = composition(data, 10_000, len(people))
        else:
            values = [data.draw(st.integers(1, 5)) for _ in people]
        items.append({"name": f"item {index}", "amount": amount, "splitMode": mode,
                      "splits": [{"participantId": p, **({} if v is None else {"value": v})}
                                 for p, v in zip(people, values, strict=True)]})
    total = sum(item["amount"] for item in items)
    payers = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3, unique=True))
    payers = payers[:total]
    return {"description": "Stateful", "date": data.draw(st.sampled_from(
        ["2026-01-01", "2026-01-02", "2026-03-01"])), "items": items,
        "payments": [{"participantId": p, "amount": a}
                     for p, a in zip(payers, composition(data, total, len(payers)), strict=True)]}


def nets_of_body(body: dict) -> dict:
    return net_effects([(p["participantId"], p["amount"]) for p in body["payments"]],
                       [(i["amount"], i["splitMode"],
                         [(s["participantId"], s.get("value")) for s in i["splits"]])
                        for i in body["items"]])


class MoneyMachine(RuleBasedStateMachine):
    """Random money writes through the services; the balance row must always be exact."""

    def __init__(self):
        super().__init__()
        self._mock = mock_aws()
        self._mock.start()
        models.configure(stage=STAGE, region="us-east-1", host=None)
        create_all_tables(STAGE)
        self.access, self.ids = make_group(make_user("machine@example.com"), guests=3)
        self.expenses = {}     # expenseId -> (version, nets)
        self.settlements = {}  # settlementId -> (version, nets)

    def teardown(self):
        self._mock.stop()

    def _pick(self, data, table: dict) -> str:
        return data.draw(st.sampled_from(sorted(table)))

    @rule(data=st.data())
    def create_expense(self, data):
        body = expense_body(data, self.ids)
        created = expenses.create_expense(self.access, body)
        self.expenses[created.ExpenseId] = (1, nets_of_body(body))

    @rule(data=st.data())
    def create_expense_naming_an_unknown_participant_is_refused(self, data):
        body = expense_body(data, self.ids)
        body["payments"][0]["participantId"] = UNKNOWN
        with pytest.raises((Conflict, Invalid)):
            expenses.create_expense(self.access, body)

    @precondition(lambda self: self.expenses)
    @rule(data=st.data(), full=st.booleans())
    def edit_expense(self, data, full):
        expense_id = self._pick(data, self.expenses)
        version, nets = self.expenses[expense_id]
        patch = expense_body(data, self.ids) if full else {
            "date": data.draw(st.sampled_from(["2025-12-31", "2026-06-15"])),
            "description": "Renamed"}
        edited = expenses.update_expense(self.access, expense_id, version, patch)
        assert int(edited.Version) == version + 1
        self.expenses[expense_id] = (version + 1, nets_of_body(patch) if full else nets)

    @precondition(lambda self: any(v > 1 for v, _ in self.expenses.values()))
    @rule(data=st.data())
    def stale_edit_is_a_version_conflict(self, data):
        expense_id = data.draw(st.sampled_from(sorted(
            eid for eid, (v, _) in self.expenses.items() if v > 1)))
        with pytest.raises(Conflict) as caught:
            expenses.update_expense(self.access, expense_id, 1, expense_body(data, self.ids))
        assert caught.value.code == "VERSION_CONFLICT"

    @precondition(lambda self: self.expenses)
    @rule(data=st.data(), count=st.integers(0, 3))
    def comment(self, data, count):
        expense_id = self._pick(data, self.expenses)
        for index in range(count):
            comments.add_comment(self.access, expense_id, f"note {index}")

    @precondition(lambda self: self.expenses)
    @rule(data=st.data())
    def delete_expense(self, data):
        expense_id = self._pick(data, self.expenses)
        expense_delete.delete_expense(self.access, expense_id)
        del self.expenses[expense_id]

    @rule(data=st.data(), amount=st.integers(1, 10**6))
    def create_settlement(self, data, amount):
        payer, payee = data.draw(st.lists(st.sampled_from(self.ids), min_size=2, max_size=2,
                                          unique=True))
        created = settlements.create_settlement(self.access, payer_id=payer, payee_id=payee,
                                                amount=amount)
        self.settlements[created.SettlementId] = (1, {payer: amount, payee: -amount})

    @precondition(lambda self: self.settlements)
    @rule(data=st.data(), amount=st.integers(1, 10**6))
    def edit_settlement(self, data, amount):
        settlement_id = self._pick(data, self.settlements)
        version, _ = self.settlements[settlement_id]
        payer, payee = data.draw(st.lists(st.sampled_from(self.ids), min_size=2, max_size=2,
                                          unique=True))
        settlements.update_settlement(self.access, settlement_id, version,
                                      {"payerId": payer, "payeeId": payee, "amount": amount})
        self.settlements[settlement_id] = (version + 1, {payer: amount, payee: -amount})

    @precondition(lambda self: self.settlements)
    @rule(data=st.data())
    def delete_settlement(self, data):
        settlement_id = self._pick(data, self.settlements)
        settlements.delete_settlement(self.access, settlement_id)
        del self.settlements[settlement_id]

    @invariant()
    def balance_row_equals_recomputation_and_the_model(self):
        assert_balance_matches_rows(self.access.group_id)
        expected: dict = {}
        for _, nets in list(self.expenses.values()) + list(self.settlements.values()):
            for pid, value in nets.items():
                expected[pid] = expected.get(pid, 0) + value
        served, _ = balances.group_nets(self.access.group_id)
        assert served == {pid: v for pid, v in expected.items() if v}
        assert sum(served.values()) == 0


MoneyMachine.TestCase.settings = settings(
    max_examples=10, stateful_step_count=10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
TestBalanceAlwaysEqualsRecomputation = MoneyMachine.TestCase
