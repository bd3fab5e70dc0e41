"""Exact conversion: converted payments and owed shares each sum to groupAmount, for every
split mode, exponents 0, 2 and 3 and random rates; converted nets still sum to 0."""
from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from app.money import fx
from app.ledger import expense_build, foreign_currency
from tests.support.expense_requests import as_create

CURRENCIES = ["JPY", "EUR", "KWD"]  # exponents 0, 2, 3
IDS = [f"00000000-0000-4000-8000-00000000000{n}" for n in range(4)]  # the REST ids
rates = st.builds(lambda digits, scale: Decimal(digits).scaleb(-scale),
                  st.integers(1, 10**12 - 1), st.integers(0, 12))


@st.composite
def bodies(draw):
    mode = draw(st.sampled_from(["EQUAL", "EXACT", "PERCENT", "SHARES"]))
    people = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=4, unique=True))
    amount = draw(st.integers(len(people), 10**9))
    if mode == "EXACT":
        cuts = sorted(draw(st.sets(st.integers(1, amount - 1), min_size=len(people) - 1,
                                   max_size=len(people) - 1))) if len(people) > 1 else []
        values = [b - a for a, b in zip([0] + cuts, cuts + [amount], strict=True)]
    elif mode == "PERCENT":
        values = [10_000 // len(people)] * len(people)
        values[0] += 10_000 - sum(values)
    else:
        values = [draw(st.integers(1, 9)) for _ in people]
    # Every payer pays at least one minor unit (a 1-unit expense has one payer).
    payers = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=min(2, amount), unique=True))
    paid = [amount // len(payers)] * len(payers)
    paid[0] += amount - sum(paid)
    return {"description": "x", "date": "2026-01-01", "amount": amount, "splitMode": mode,
            "splits": [{"participantId": p, "value": v} for p, v in zip(people, values,
                                                                          strict=True)],
            "payments": [{"participantId": p, "amount": a}
                         for p, a in zip(payers, paid, strict=True)]}


@settings(max_examples=150, deadline=None)
@given(body=bodies(), rate=rates, source=st.sampled_from(CURRENCIES),
       target=st.sampled_from(CURRENCIES))
def test_converted_payments_and_owed_each_sum_to_group_amount(body, rate, source, target):
    if source == target:
        return
    text = fx.rate_text(fx.significant(rate))
    rate = Decimal(text)
    total = fx.convert(body["amount"], rate, source, target)
    try:
        draft = expense_build.build(as_create({**body, "currency": source, "exchangeRate": text}),
                                    target)
    except Exception as error:  # noqa: BLE001 — only "converts to nothing/too much" may refuse
        assert not 0 < total <= 10**11, error
        return
    made = draft.body
    assert made.group_amount == total and made.rate_source == foreign_currency.CLIENT
    assert sum(int(p.GroupAmount) for p in made.payments) == total
    assert sum(int(s.GroupAmount) for i in made.items for s in i.Splits) == total
    assert sum(draft.nets.values()) == 0
    # Each owed share is within one unit of its exact converted share.
    for split in made.items[0].Splits:
        exact = Decimal(int(split.Amount)) * total / body["amount"]
        assert abs(int(split.GroupAmount) - exact) < 1


@settings(max_examples=150, deadline=None)
@given(values=st.lists(st.integers(-10**9, 10**9), min_size=1, max_size=6), rate=rates,
       source=st.sampled_from(CURRENCIES), target=st.sampled_from(CURRENCIES))
def test_converted_nets_sum_to_zero(values, rate, source, target):
    nets = {f"p{i}": v for i, v in enumerate(values)}
    nets["last"] = -sum(values)
    converted = fx.convert_nets(nets, rate, source, target)
    assert sum(converted.values()) == 0
    assert all((converted.get(pid, 0) >= 0) == (value >= 0) or converted.get(pid, 0) == 0
               for pid, value in nets.items())


@given(amount=st.integers(1, 10**11), group_amount=st.integers(1, 10**11),
       source=st.sampled_from(CURRENCIES), target=st.sampled_from(CURRENCIES))
@settings(max_examples=100, deadline=None)
def test_a_derived_rate_has_at_most_12_significant_digits(amount, group_amount, source, target):
    rate = fx.derive_rate(amount, group_amount, source, target)
    assert fx.parse_rate(fx.rate_text(rate)) == rate
