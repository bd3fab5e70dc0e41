"""Property tests for app.money.settle: every plan settles exactly; exact is optimal."""
from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from app.money.settle import EXACT_LIMIT, exact_plan, greedy_plan, settle_up

PLANS = {"settle_up": settle_up, "greedy_plan": greedy_plan, "exact_plan": exact_plan}

# Multiples of 500 make many zero-sum subsets (the interesting case for exact); arbitrary
# amounts mostly make none.
amount = st.one_of(st.integers(-12, 12).map(lambda k: 500 * k),
                   st.integers(-10**7, 10**7),
                   st.integers(-3, 3))
ids = st.text("abcdefgh", min_size=1, max_size=3)


@st.composite
def zero_sum_nets(draw, min_size=2, max_size=12, grouped=None):
    """Random nets summing to 0; half the time built from hidden zero-sum groups, so
    that partitions into several groups (where greedy goes wrong) are common."""
    names = draw(st.lists(ids, min_size=min_size, max_size=max_size, unique=True))
    values: list[int] = []
    if grouped or (grouped is None and draw(st.booleans())):
        while len(names) - len(values) >= 4:  # leave room for a last group of >= 2
            room = len(names) - len(values) - 2
            size = draw(st.sampled_from([k for k in (3, 4, 2) if k <= room]))
            group = draw(st.lists(amount, min_size=size - 1, max_size=size - 1))
            values += group + [-sum(group)]
    rest = draw(st.lists(amount, min_size=len(names) - len(values) - 1,
                         max_size=len(names) - len(values) - 1))
    values += rest + [-sum(rest)]
    values = draw(st.permutations(values))
    return dict(zip(names, values, strict=True))


def apply(nets: dict[str, int], plan) -> dict[str, int]:
    after = dict(nets)
    for payer, payee, x in plan:
        after[payer] += x
        after[payee] -= x
    return after


def brute_force_min_payments(values: list[int]) -> int:
    """n - max blocks over every set partition of the non-zero values into zero-sum blocks."""
    values = [v for v in values if v]

    @lru_cache(maxsize=None)
    def max_blocks(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = -1  # -1 = no partition into zero-sum blocks
        for pick in range(1 << len(others)):  # the block holding `first`
            block = [first] + [v for i, v in enumerate(others) if pick >> i & 1]
            if sum(block) == 0:
                remaining = tuple(v for i, v in enumerate(others) if not pick >> i & 1)
                sub = max_blocks(remaining)
                if sub >= 0:
                    best = max(best, 1 + sub)
        return best

    return len(values) - max_blocks(tuple(values)) if values else 0


def textbook_min_payments(values: list[int]) -> int:
    """The plain n * 2^n subset DP, as an independent reference for wider groups."""
    values = [v for v in values if v]
    n = len(values)
    sums = [0] * (1 << n)
    dp = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        dp[mask] = max(dp[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (sums[mask] == 0)
    return n - dp[-1] if n else 0


@settings(max_examples=300, deadline=None)
@given(zero_sum_nets(), st.sampled_from(sorted(PLANS)))
def test_every_plan_settles_every_net_exactly_with_positive_debtor_to_creditor_payments(nets, name):
    plan = PLANS[name](nets)
    assert all(after == 0 for after in apply(nets, plan).values())
    for payer, payee, x in plan:
        assert type(x) is int and x > 0
        assert nets[payer] < 0 < nets[payee]  # only debtors pay, only creditors receive


@settings(max_examples=300, deadline=None)
@given(zero_sum_nets())
def test_greedy_uses_at_most_n_minus_one_payments(nets):
    nonzero = sum(1 for v in nets.values() if v)
    assert len(greedy_plan(nets)) <= max(nonzero - 1, 0)


@settings(max_examples=300, deadline=None)
@given(zero_sum_nets())
def test_settle_up_never_uses_more_payments_than_greedy(nets):
    assert len(settle_up(nets)) <= len(greedy_plan(nets))


@settings(max_examples=300, deadline=None)
@given(st.one_of(zero_sum_nets(max_size=9), zero_sum_nets(min_size=8, max_size=9, grouped=True)))
def test_exact_plan_matches_the_brute_force_minimum_up_to_9_balances(nets):
    best = brute_force_min_payments(list(nets.values()))
    assert len(exact_plan(nets)) == best
    assert len(settle_up(nets)) == best


@settings(max_examples=40, deadline=None)
@given(zero_sum_nets(min_size=10, max_size=13, grouped=True))
def test_exact_plan_matches_the_textbook_subset_dp_for_10_to_13_balances(nets):
    assert len(exact_plan(nets)) == textbook_min_payments(list(nets.values()))


@settings(max_examples=200, deadline=None)
@given(zero_sum_nets(), st.randoms(use_true_random=False), st.sampled_from(sorted(PLANS)))
def test_plans_do_not_depend_on_dict_order(nets, rnd, name):
    items = list(nets.items())
    rnd.shuffle(items)
    assert PLANS[name](dict(items)) == PLANS[name](nets)


@given(st.sampled_from(sorted(PLANS)))
def test_all_zero_nets_need_no_payments(name):
    assert PLANS[name]({"a": 0, "b": 0}) == []
    assert PLANS[name]({}) == []


@pytest.mark.parametrize("name", sorted(PLANS))
def test_nets_not_summing_to_zero_raise_value_error(name):
    with pytest.raises(ValueError):
        PLANS[name]({"a": 5, "b": -4})


def test_opposite_pairs_settle_with_one_payment_each():
    nets = {"a": 700, "b": -700, "c": 300, "d": -300, "e": 300, "f": -300}
    assert sorted(settle_up(nets)) == [("b", "a", 700), ("d", "c", 300), ("f", "e", 300)]


def test_exact_beats_greedy_when_greedy_breaks_a_zero_sum_group():
    # {16, -9, -7} and {6, 2, -8} each sum to 0: 2 + 2 = 4 payments. Greedy lets the -8
    # debtor pay the 16 creditor's remaining 7 and splits both groups: 5 payments.
    nets = {"a": -9, "b": -8, "c": -7, "d": 2, "e": 6, "f": 16}
    assert len(greedy_plan(nets)) == 5
    assert sorted(exact_plan(nets)) == [("a", "f", 9), ("b", "d", 2), ("b", "e", 6), ("c", "f", 7)]


def _twenty_balances(seed: int) -> dict[str, int]:
    """20 non-zero balances forming 6 hidden zero-sum groups (3,3,3,3,4,4), no opposites."""
    rng = random.Random(seed)
    values: list[int] = []
    for size in (3, 3, 3, 3, 4, 4):
        while True:
            group = [rng.randint(-10**6, 10**6) for _ in range(size - 1)]
            group.append(-sum(group))
            pool = values + group
            if 0 not in group and not any(-v in pool for v in pool):
                values.extend(group)
                break
    rng.shuffle(values)
    return {f"member-{i:02d}": v for i, v in enumerate(values)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_exact_plan_settles_20_balances_with_the_proven_minimum_of_14_payments(seed):
    # No zeros and no opposite pairs, so every zero-sum group has >= 3 members and 20
    # balances form at most 6 groups: 20 - 6 = 14 payments is optimal and achievable.
    nets = _twenty_balances(seed)
    assert sum(1 for v in nets.values() if v) == EXACT_LIMIT
    plan = exact_plan(nets)
    assert all(after == 0 for after in apply(nets, plan).values())
    assert len(plan) == 14
    assert settle_up(nets) == plan


def test_exact_plan_settles_20_random_unstructured_balances():
    rng = random.Random(20)
    values = [rng.randint(-10**8, 10**8) for _ in range(19)]
    values.append(-sum(values))
    nets = {f"p{i:02d}": v for i, v in enumerate(values)}
    plan = exact_plan(nets)
    assert all(after == 0 for after in apply(nets, plan).values())
    assert len(plan) <= 19


def test_settle_up_falls_back_to_greedy_beyond_the_exact_limit():
    rng = random.Random(1000)
    values = [500 * rng.randint(-40, 40) for _ in range(999)]
    values.append(-sum(values))
    nets = {f"p{i:04d}": v for i, v in enumerate(values)}
    plan = settle_up(nets)
    assert all(after == 0 for after in apply(nets, plan).values())
    assert len(plan) <= len(greedy_plan(nets))
