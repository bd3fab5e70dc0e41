"""Property tests for app.money.splits: exact integer split arithmetic."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings, strategies as st

from app.errors import Invalid
from app.money.splits import (INCOME, MAX_AMOUNT, SPLIT_MODES, apportion, net_effects,
                              resolve_item, validate_payments)

FAST = settings(max_examples=200, deadline=None)

amounts = st.integers(min_value=1, max_value=MAX_AMOUNT)
participant_ids = st.lists(st.text("abcdefghijklmnop0123456789-", min_size=1, max_size=8),
                           min_size=1, max_size=50, unique=True)


def parts_summing_to(total: int, count: int) -> st.SearchStrategy[list[int]]:
    """`count` non-negative ints summing to `total` (cut points on [0, total])."""
    return (st.lists(st.integers(0, total), min_size=count - 1, max_size=count - 1)
            .map(lambda cuts: [b - a for a, b in zip([0] + sorted(cuts), sorted(cuts) + [total], strict=True)]))


@st.composite
def adjustments_for(draw, amount: int, count: int) -> list[int]:
    """``count`` signed adjustments an ADJUSTMENT item of ``amount`` accepts: final shares
    drawn first (>= 0, summing to the amount), and a remainder (negative too) whose equal
    parts the adjustments complete to those shares."""
    shares = draw(parts_summing_to(amount, count))
    remainder = draw(st.integers(-((MAX_AMOUNT - amount) // 2), amount // 2))
    return [share - part for share, part
            in zip(shares, apportion(remainder, [1] * count), strict=True)]


@st.composite
def valid_items(draw, amount_strategy=amounts, modes=SPLIT_MODES):
    """(amount, mode, splits) with values valid for the drawn mode (one of ``modes``)."""
    amount = draw(amount_strategy)
    ids = draw(participant_ids)
    mode = draw(st.sampled_from(modes))
    if mode == "EQUAL":
        values = draw(st.lists(st.integers(-5, 5) | st.none(), min_size=len(ids), max_size=len(ids)))
    elif mode == "EXACT":
        values = draw(parts_summing_to(amount, len(ids)))
    elif mode == "PERCENT":
        values = draw(parts_summing_to(10_000, len(ids)))
    elif mode == "ADJUSTMENT":
        values = draw(adjustments_for(amount, len(ids)))
    else:
        big = st.integers(1, 10**12)
        small = st.integers(1, 5)
        values = draw(st.lists(small | big, min_size=len(ids), max_size=len(ids)))
    return amount, mode, list(zip(ids, values, strict=True))


def weights(mode: str, splits) -> list[int]:
    return [1 if mode == "EQUAL" else value for _, value in splits]


def ideal_shares(amount: int, mode: str, splits) -> list[Fraction]:
    """Each split's exact share: in proportion to its weight, or (ADJUSTMENT) an equal part
    of what the adjustments leave plus its own adjustment."""
    if mode == "ADJUSTMENT":
        rest = Fraction(amount - sum(value for _, value in splits), len(splits))
        return [rest + value for _, value in splits]
    w = weights(mode, splits)
    return [Fraction(amount * x, sum(w)) for x in w]


@FAST
@given(valid_items())
def test_owed_amounts_sum_exactly_to_the_item_amount(item):
    amount, mode, splits = item
    owed = resolve_item(amount, mode, splits)
    assert len(owed) == len(splits)
    assert all(type(x) is int for x in owed)
    assert sum(owed) == amount


@FAST
@given(valid_items())
def test_each_owed_amount_is_within_one_minor_unit_of_its_ideal_share(item):
    amount, mode, splits = item
    owed = resolve_item(amount, mode, splits)
    for share, ideal, (_, value) in zip(owed, ideal_shares(amount, mode, splits), splits,
                                        strict=True):
        # floor(ideal) or ceil(ideal): strictly less than one unit from the ideal share.
        assert -1 < share - ideal < 1
        assert share >= 0
        if mode in ("PERCENT", "SHARES") and value == 0:
            assert share == 0


def test_leftover_never_lands_on_a_split_whose_ideal_share_is_whole():
    # Ideal (3, 1.5, 1.5): floors (3, 1, 1) leave 1 unit; the first fractional share takes it.
    assert resolve_item(6, "SHARES", [("a", 2), ("b", 1), ("c", 1)]) == [3, 2, 1]


@FAST
@given(valid_items())
def test_leftover_units_go_one_each_to_fractional_shares_in_list_order(item):
    amount, mode, splits = item
    assume(mode not in ("EXACT", "ADJUSTMENT"))
    owed = resolve_item(amount, mode, splits)
    w = weights(mode, splits)
    floors = [amount * x // sum(w) for x in w]
    leftover = amount - sum(floors)
    receivers = [i for i, x in enumerate(w) if amount * x % sum(w)][:leftover]
    assert owed == [f + (1 if i in receivers else 0) for i, f in enumerate(floors)]


@FAST
@given(amounts, participant_ids, st.data())
def test_zero_percent_split_owes_exactly_zero(amount, ids, data):
    assume(len(ids) >= 2)
    values = data.draw(parts_summing_to(10_000, len(ids) - 1)) + [0]
    owed = resolve_item(amount, "PERCENT", list(zip(ids, values, strict=True)))
    assert all(share == 0 for share, value in zip(owed, values, strict=True) if value == 0)


@FAST
# EXACT items drawn directly: filtering the mixed strategy with assume() discarded three in
# four draws and failed Hypothesis's filter_too_much health check on some seeds.
@given(valid_items(modes=["EXACT"]))
def test_exact_splits_owe_exactly_their_values(item):
    amount, mode, splits = item
    assert resolve_item(amount, mode, splits) == [value for _, value in splits]


@FAST
@given(valid_items(modes=["ADJUSTMENT"]))
def test_adjustment_splits_owe_an_equal_part_of_the_rest_plus_their_adjustment(item):
    amount, mode, splits = item
    values = [value for _, value in splits]
    # The rest is shared by the split rounding rule (floor toward minus infinity, leftover
    # units in list order), negative rests included.
    rest = apportion(amount - sum(values), [1] * len(values))
    assert resolve_item(amount, mode, splits) == [r + v for r, v in zip(rest, values, strict=True)]


def test_adjustment_examples_from_the_contract():
    # 100 with +10 for a: 90 left, 30 each; a owes 40.
    assert resolve_item(100, "ADJUSTMENT", [("a", 10), ("b", 0), ("c", 0)]) == [40, 30, 30]
    # Adjustments past the amount: the rest -5 is shared as -2, -3 (floor toward -inf, the
    # leftover unit to the first split), and 0 is an allowed value.
    assert resolve_item(15, "ADJUSTMENT", [("a", 10), ("b", 10)]) == [8, 7]
    assert resolve_item(7, "ADJUSTMENT", [("a", 0), ("b", 0)]) == [4, 3]


# 10 with +20 for a: -10 left, -5 each, so b would owe -5. 1 with -3 for a: 4 left, 2 each,
# so a would owe -1.
@pytest.mark.parametrize("amount, splits", [(10, [("a", 20), ("b", 0)]),
                                            (1, [("a", -3), ("b", 0)])])
def test_adjustment_that_leaves_a_share_below_zero_is_invalid(amount, splits):
    with pytest.raises(Invalid) as err:
        resolve_item(amount, "ADJUSTMENT", splits)
    assert "below 0" in err.value.message


@pytest.mark.parametrize("value", [None, 1.5, True, MAX_AMOUNT + 1, -MAX_AMOUNT - 1])
def test_adjustment_values_are_required_integers_in_range(value):
    with pytest.raises(Invalid):
        resolve_item(100, "ADJUSTMENT", [("a", value), ("b", 0)])


def test_equal_split_of_100_between_3_gives_the_extra_unit_to_the_first():
    assert resolve_item(100, "EQUAL", [("a", 0), ("b", 0), ("c", 0)]) == [34, 33, 33]
    assert resolve_item(101, "EQUAL", [("c", 0), ("b", 0), ("a", 0)]) == [34, 34, 33]


@FAST
@given(amounts, participant_ids, st.integers(-10**6, 10**6).filter(lambda d: d != 0), st.data())
def test_exact_splits_not_summing_to_the_amount_are_invalid(amount, ids, delta, data):
    values = data.draw(parts_summing_to(amount, len(ids)))
    values[-1] += delta
    assume(values[-1] >= 0)
    with pytest.raises(Invalid) as err:
        resolve_item(amount, "EXACT", list(zip(ids, values, strict=True)))
    assert err.value.details["field"] == "splits"


@FAST
@given(amounts, participant_ids, st.integers(-10_000, 10_000).filter(lambda d: d != 0), st.data())
def test_percent_splits_not_summing_to_10000_are_invalid(amount, ids, delta, data):
    values = data.draw(parts_summing_to(10_000, len(ids)))
    values[-1] += delta
    assume(values[-1] >= 0)
    with pytest.raises(Invalid):
        resolve_item(amount, "PERCENT", list(zip(ids, values, strict=True)))


@FAST
@given(amounts, participant_ids, st.integers(-5, 0), st.data())
def test_shares_below_one_are_invalid(amount, ids, bad, data):
    values = data.draw(st.lists(st.integers(1, 100), min_size=len(ids), max_size=len(ids)))
    values[data.draw(st.integers(0, len(ids) - 1))] = bad
    with pytest.raises(Invalid):
        resolve_item(amount, "SHARES", list(zip(ids, values, strict=True)))


@FAST
@given(amounts, st.sampled_from(("EXACT", "PERCENT")), participant_ids, st.data())
def test_negative_exact_or_percent_values_are_invalid(amount, mode, ids, data):
    assume(len(ids) >= 2)
    target = amount if mode == "EXACT" else 10_000
    values = data.draw(parts_summing_to(target, len(ids)))
    values[0] -= target + 1  # negative, compensated so the sum still matches
    values[1] += target + 1
    with pytest.raises(Invalid):
        resolve_item(amount, mode, list(zip(ids, values, strict=True)))


@FAST
@given(valid_items(), st.data())
def test_a_participant_twice_in_one_item_is_invalid(item, data):
    amount, mode, splits = item
    victim = data.draw(st.sampled_from(splits))
    # Duplicating an EQUAL/SHARES split keeps its values valid, so only the duplicate is wrong.
    assume(mode in ("EQUAL", "SHARES"))
    with pytest.raises(Invalid) as err:
        resolve_item(amount, mode, splits + [victim])
    assert err.value.details.get("participantId") == victim[0]


@FAST
@given(st.sampled_from(SPLIT_MODES),
       st.one_of(st.floats(allow_nan=True), st.booleans(), st.just("100"), st.none(),
                 st.integers(max_value=0), st.integers(min_value=MAX_AMOUNT + 1)))
def test_amount_that_is_not_an_int_in_range_is_invalid(mode, amount):
    with pytest.raises(Invalid) as err:
        resolve_item(amount, mode, [("a", 10_000 if mode == "PERCENT" else 1)])
    assert err.value.details["field"] == "amount"


@pytest.mark.parametrize("amount", [True, 1.0, 4500.0, 10000.4, 0, -1, MAX_AMOUNT + 1])
def test_bool_float_zero_and_too_large_totals_are_invalid(amount):
    with pytest.raises(Invalid):
        validate_payments(amount, [("a", 1)])


@pytest.mark.parametrize("mode", SPLIT_MODES)
def test_empty_splits_are_invalid(mode):
    with pytest.raises(Invalid) as err:
        resolve_item(100, mode, [])
    assert err.value.details["field"] == "splits"


def test_unknown_split_mode_is_invalid():
    with pytest.raises(Invalid) as err:
        resolve_item(100, "RATIO", [("a", 1)])
    assert err.value.details["field"] == "splitMode"


@pytest.mark.parametrize("value", [1.0, True, "3", None])
def test_non_integer_split_values_are_invalid(value):
    with pytest.raises(Invalid):
        resolve_item(100, "SHARES", [("a", value)])


def test_exact_mismatch_message_states_both_sums():
    with pytest.raises(Invalid, match="EXACT splits sum to 4400 but the item amount is 4500"):
        resolve_item(4500, "EXACT", [("a", 2200), ("b", 2200)])


@st.composite
def payments_for(draw, total=None):
    total = draw(amounts) if total is None else total
    count = draw(st.integers(1, min(20, total)))
    # positive parts: cut points chosen among 1..total-1, distinct
    cuts = sorted(draw(st.sets(st.integers(1, total - 1), min_size=count - 1, max_size=count - 1))
                  ) if total > 1 else []
    parts = [b - a for a, b in zip([0] + cuts, cuts + [total], strict=True)]
    ids = draw(st.lists(st.text("xyz0123456789", min_size=1, max_size=6),
                        min_size=len(parts), max_size=len(parts), unique=True))
    return total, list(zip(ids, parts, strict=True))


@FAST
@given(payments_for())
def test_valid_payments_are_accepted(case):
    total, payments = case
    validate_payments(total, payments)


@FAST
@given(payments_for(), st.integers(-10**6, 10**6).filter(lambda d: d != 0))
def test_payments_not_summing_to_the_total_are_invalid(case, delta):
    total, payments = case
    assume(0 < total + delta <= MAX_AMOUNT)
    with pytest.raises(Invalid) as err:
        validate_payments(total + delta, payments)
    assert err.value.details["field"] == "payments"


@FAST
@given(payments_for(), st.data())
def test_duplicate_payer_is_invalid(case, data):
    total, payments = case
    pid, paid = data.draw(st.sampled_from(payments))
    with pytest.raises(Invalid):
        validate_payments(total + paid, payments + [(pid, paid)])


@pytest.mark.parametrize("payments", [[], [("a", 0), ("b", 100)], [("a", -5), ("b", 105)],
                                      [("a", 100.0)], [("a", True), ("b", 99)]])
def test_empty_zero_negative_or_non_int_payments_are_invalid(payments):
    with pytest.raises(Invalid):
        validate_payments(100, payments)


@st.composite
def expenses(draw):
    items = draw(st.lists(valid_items(st.integers(1, 10**9)), min_size=1, max_size=5))
    total = sum(amount for amount, _, _ in items)
    _, payments = draw(payments_for(total))
    return payments, items


@FAST
@given(expenses())
def test_net_effects_sum_to_zero_and_cover_every_participant(expense):
    payments, items = expense
    net = net_effects(payments, items)
    assert sum(net.values()) == 0
    mentioned = {pid for pid, _ in payments} | {pid for _, _, s in items for pid, _ in s}
    assert set(net) == mentioned


@FAST
@given(expenses())
def test_net_effect_is_paid_minus_owed(expense):
    payments, items = expense
    net = net_effects(payments, items)
    expected: dict[str, int] = {}
    for amount, mode, splits in items:
        for (pid, _), owed in zip(splits, resolve_item(amount, mode, splits), strict=True):
            expected[pid] = expected.get(pid, 0) - owed
    for pid, paid in payments:
        expected[pid] = expected.get(pid, 0) + paid
    assert net == expected


@FAST
@given(expenses())
def test_an_income_moves_every_net_the_other_way(expense):
    payments, items = expense
    spent, received = net_effects(payments, items), net_effects(payments, items, kind=INCOME)
    assert received == {pid: -value for pid, value in spent.items()}
    assert sum(received.values()) == 0


@FAST
@given(expenses(), st.integers(1, 10**6))
def test_net_effects_rejects_payments_not_matching_the_items(expense, extra):
    payments, items = expense
    pid, paid = payments[0]
    with pytest.raises(Invalid):
        net_effects([(pid, paid + extra)] + payments[1:], items)


def test_net_effects_reports_which_item_is_invalid():
    with pytest.raises(Invalid) as err:
        net_effects([("a", 300)], [(100, "EQUAL", [("a", 1)]), (200, "EXACT", [("a", 150)])])
    assert err.value.details["field"] == "items[1].splits"
    assert err.value.details["item"] == 1


def test_net_effects_needs_at_least_one_item():
    with pytest.raises(Invalid):
        net_effects([("a", 100)], [])
