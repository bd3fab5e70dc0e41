"""Properties of extras (tax, tip, service, discount), through the ledger's one judge
(app.ledger.expense_build.build) and the pure arithmetic (app.money.extras): in every split
mode and in currencies of exponents 0, 2 and 3, kept and converted,

- the owed amounts (item shares plus extra shares) sum exactly to the expense amount, and
  a converted row's group shares to its groupAmount;
- each item's split amounts still sum to the item amount;
- each extra's shares sum to the extra and each is within one minor unit of its exact
  proportional share of the item subtotals;
- the body's nets sum to 0, and no participant owes below 0 (or the body is refused)."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import example, given, settings, strategies as st

from app.errors import Invalid
from app.ledger import expense_build
from app.ledger.balances import body_nets
from app.money.extras import extra_shares
from app.ledger.expense_input import ExpenseInput, ExtraInput, ItemInput, PaymentInput, SplitInput
from app.money import extras as extra_money

PEOPLE = [f"00000000-0000-4000-8000-00000000000{n}" for n in range(6)]
CURRENCIES = ("JPY", "EUR", "KWD")  # exponents 0, 2, 3
RATES = {"JPY": "151.3", "EUR": "0.91", "KWD": "0.307"}  # 1 USD in each


@st.composite
def items(draw):
    amount = draw(st.integers(1, 10 ** 7))
    mode = draw(st.sampled_from(("EQUAL", "EXACT", "PERCENT", "SHARES")))
    among = draw(st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=6, unique=True))
    if mode == "EXACT":
        cuts = sorted(draw(st.lists(st.integers(0, amount), min_size=len(among) - 1,
                                    max_size=len(among) - 1)))
        values = [b - a for a, b in zip([0, *cuts], [*cuts, amount], strict=True)]
    elif mode == "PERCENT":
        cuts = sorted(draw(st.lists(st.integers(0, 10_000), min_size=len(among) - 1,
                                    max_size=len(among) - 1)))
        values = [b - a for a, b in zip([0, *cuts], [*cuts, 10_000], strict=True)]
    elif mode == "SHARES":
        values = draw(st.lists(st.integers(1, 9), min_size=len(among), max_size=len(among)))
    else:
        values = [None] * len(among)
    return ItemInput("item", amount, mode,
                     tuple(SplitInput(p, v) for p, v in zip(among, values, strict=True)))


@st.composite
def bodies(draw):
    drawn = tuple(draw(st.lists(items(), min_size=1, max_size=4)))
    item_total = sum(i.amount for i in drawn)
    extras = tuple(ExtraInput(name, draw(st.integers(-item_total // 3, item_total)))
                   for name in draw(st.lists(st.sampled_from(
                       ("tax", "tip", "service", "discount", "Corkage")), max_size=4)))
    total = item_total + sum(e.amount for e in extras)
    payer = draw(st.sampled_from(PEOPLE))
    return ExpenseInput.of(description="Dinner", date="2026-11-28", items=drawn, extras=extras,
                           payments=(PaymentInput(payer, total),))


def _owed(body, converted: bool) -> dict:
    owed: dict = {}
    for item in body.items:
        for split in item.Splits:
            value = int(split.GroupAmount if converted else split.Amount)
            owed[split.ParticipantId] = owed.get(split.ParticipantId, 0) + value
    for _, shares in extra_shares(body):
        for share in shares:
            value = share.group_amount if converted else share.amount
            owed[share.participant_id] = owed.get(share.participant_id, 0) + value
    return owed


# Discounts worth the whole bill: the total is 0 and the build refuses it (hypothesis found
# this one on 2026-12-06, after the refusal list above had left it out).
ALL_DISCOUNTED = ExpenseInput.of(
    description="Dinner", date="2026-11-28",
    items=(ItemInput("item", 3, "EQUAL", (SplitInput(PEOPLE[0], None),)),),
    extras=tuple(ExtraInput("discount", -1) for _ in range(3)),
    payments=(PaymentInput(PEOPLE[1], 0),))


@settings(max_examples=300, deadline=None)
@given(body=bodies(), currency=st.sampled_from(CURRENCIES), converted=st.booleans())
@example(body=ALL_DISCOUNTED, currency="EUR", converted=False)
def test_owed_sums_exactly_and_each_extra_share_is_within_a_unit(body, currency, converted):
    sent = body.with_(currency="USD", exchange_rate=RATES[currency]) if converted else body
    try:
        built = expense_build.build(sent, currency).body
    except Invalid as error:
        # Only three refusals are possible for a body built this way: discounts that take
        # the total below 1, a participant pushed below 0 by rounding several discounts, or
        # a converted total out of bounds.
        total = sum(i.amount for i in body.items) + sum(e.amount for e in body.extras)
        assert ("below 0" in error.message or converted
                or (total < 1 and "amount must be between 1" in error.message)), error.message
        return
    assert built.amount == sum(i.amount for i in body.items) + sum(e.amount for e in body.extras)
    for item in built.items:
        assert sum(int(s.Amount) for s in item.Splits) == int(item.Amount)
    owed = _owed(built, False)
    assert sum(owed.values()) == built.amount
    assert all(value >= 0 for value in owed.values())
    splits = [[(s.ParticipantId, int(s.Amount)) for s in item.Splits] for item in built.items]
    order = extra_money.participant_order(splits)
    subtotals = dict(zip(order, extra_money.item_subtotals(splits, order), strict=True))
    whole = sum(subtotals.values())
    for extra, shares in extra_shares(built):
        assert sum(s.amount for s in shares) == int(extra.Amount)
        assert [s.participant_id for s in shares] == order
        for share in shares:
            exact = Fraction(int(extra.Amount) * subtotals[share.participant_id], whole)
            assert abs(share.amount - exact) < 1
    if converted:
        group_owed = _owed(built, True)
        assert sum(group_owed.values()) == built.group_amount
        assert all(value >= 0 for value in group_owed.values())
    nets = body_nets(built, currency)
    assert sum(nets.values()) == 0


@settings(max_examples=300, deadline=None)
@given(total=st.integers(-10 ** 9, 10 ** 9),
       amounts=st.lists(st.integers(-10 ** 6, 10 ** 6), min_size=1, max_size=12)
       .filter(lambda a: sum(a) > 0))
def test_signed_cumulative_rounding_is_exact_and_within_a_unit(total, amounts):
    parts = extra_money.apportion_signed(total, amounts)
    assert sum(parts) == total
    whole = sum(amounts)
    for part, amount in zip(parts, amounts, strict=True):
        assert abs(part - Fraction(total * amount, whole)) < 1
