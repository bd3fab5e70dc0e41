"""Property tests for app.money.pairwise: a row's pairwise debts are its split exactly."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from app.money.pairwise import (EXPENSE, INCOME, net_pairs, nets_of, row_debts,
                                settlement_debts, transfers)
from app.money.settle import settle_up
from app.money.splits import apportion

people = st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=6, unique=True)


@st.composite
def rows(draw):
    """One row: an amount, payments over some people and owed shares over others."""
    amount = draw(st.integers(1, 10**7))
    payers, sharers = draw(people), draw(people)
    paid = apportion(amount, draw(st.lists(st.integers(1, 50), min_size=len(payers),
                                           max_size=len(payers))))
    owed = apportion(amount, draw(st.lists(st.integers(0, 50), min_size=len(sharers),
                                           max_size=len(sharers)).filter(any)))
    kind = draw(st.sampled_from((EXPENSE, INCOME)))
    return list(zip(payers, paid, strict=True)), list(zip(sharers, owed, strict=True)), kind


def _row_nets(payments, owed, kind) -> dict:
    sign = 1 if kind == EXPENSE else -1
    nets: dict = {}
    for pid, value in payments:
        nets[pid] = nets.get(pid, 0) + sign * value
    for pid, value in owed:
        nets[pid] = nets.get(pid, 0) - sign * value
    return {pid: value for pid, value in sorted(nets.items()) if value}


@settings(max_examples=400, deadline=None)
@given(rows())
def test_a_rows_debts_net_to_its_paid_minus_owed(row):
    payments, owed, kind = row
    assert nets_of(net_pairs(row_debts(payments, owed, kind))) == _row_nets(payments, owed, kind)


@settings(max_examples=300, deadline=None)
@given(rows())
def test_each_debt_is_the_floor_of_its_proportional_share_or_one_more(row):
    payments, owed, _ = row
    amount = sum(value for _, value in payments)
    debts = row_debts(payments, owed)
    paid, share = dict(payments), dict(owed)
    for (debtor, creditor), value in debts.items():
        exact_floor = share[debtor] * paid[creditor] // amount
        assert exact_floor <= value <= exact_floor + 1


def test_a_sharer_who_also_paid_owes_only_the_other_payers():
    # a paid 60, b paid 40; a, b, c each owe 1/3 of 100.
    debts = row_debts([("a", 60), ("b", 40)], [("a", 34), ("b", 33), ("c", 33)])
    # Floors: a->b 13, b->a 19, c->a 19, c->b 13; a's leftover unit goes to a itself (the
    # payer furthest from their credit), b's to a (a tie, list order), c's to b.
    assert debts == {("a", "b"): 13, ("b", "a"): 20, ("c", "a"): 19, ("c", "b"): 14}
    assert transfers(net_pairs(debts)) == [("b", "a", 7), ("c", "a", 19), ("c", "b", 14)]


def test_income_reverses_every_debt():
    assert row_debts([("a", 90)], [("a", 30), ("b", 30), ("c", 30)], INCOME) == {
        ("a", "b"): 30, ("a", "c"): 30}


def test_a_settlement_is_a_debt_of_the_payee_to_the_payer():
    assert settlement_debts("a", "b", 500) == {("b", "a"): 500}


@st.composite
def histories(draw):
    history = draw(st.lists(rows(), min_size=1, max_size=12))
    settlements = draw(st.lists(st.tuples(st.sampled_from("abcdefgh"),
                                          st.sampled_from("abcdefgh"),
                                          st.integers(1, 10**6)), max_size=4))
    return history, settlements


@settings(max_examples=200, deadline=None)
@given(histories())
def test_pairwise_transfers_and_the_simplified_plan_agree_on_every_net(history):
    rows_, settlements = history
    debts: dict = {}
    nets: dict = {}
    for payments, owed, kind in rows_:
        for pair, value in row_debts(payments, owed, kind).items():
            debts[pair] = debts.get(pair, 0) + value
        for pid, value in _row_nets(payments, owed, kind).items():
            nets[pid] = nets.get(pid, 0) + value
    for payer, payee, amount in settlements:
        for pair, value in settlement_debts(payer, payee, amount).items():
            debts[pair] = debts.get(pair, 0) + value
        if payer != payee:
            nets[payer] = nets.get(payer, 0) + amount
            nets[payee] = nets.get(payee, 0) - amount
    nets = {pid: value for pid, value in sorted(nets.items()) if value}
    pairwise = transfers(net_pairs(debts))
    assert _settled_by(pairwise) == nets
    assert _settled_by(settle_up(nets)) == nets


def _settled_by(plan) -> dict:
    """The nets a plan of payments clears (a payer's net is what they must pay in)."""
    nets: dict = {}
    for payer, payee, amount in plan:
        nets[payer] = nets.get(payer, 0) - amount
        nets[payee] = nets.get(payee, 0) + amount
    return {pid: value for pid, value in sorted(nets.items()) if value}
