"""Properties of households' settle-up (app.money.households): the unit plan settles every
unit to 0, is never longer than the per-person plan, and unit nets are the sums of their
members' nets; every transfer runs between representatives of different units."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from app.money import households as hh
from app.money.settle import settle_up

LABELS = ("Smiths", "smiths", "Jones", "Lee", None)


@st.composite
def groups(draw):
    size = draw(st.integers(1, 14))
    ids = [f"00000000-0000-4000-8000-{n:012d}" for n in range(size)]
    members = [hh.Member(pid, draw(st.sampled_from(LABELS)),
                         f"2026-01-{draw(st.integers(1, 3)):02d}T00:00:00.000Z") for pid in ids]
    nets = draw(st.lists(st.integers(-10 ** 6, 10 ** 6), min_size=size, max_size=size))
    nets[-1] -= sum(nets)  # nets sum to 0
    return members, dict(zip(ids, nets, strict=True))


@settings(max_examples=400, deadline=None)
@given(group=groups())
def test_the_unit_plan_settles_every_unit_and_is_never_longer(group):
    members, nets = group
    unit_of = hh.units(members)
    summed = hh.unit_nets(members, nets)
    # Unit nets are the sums of their members' nets.
    for unit, net in summed.items():
        assert net == sum(v for pid, v in nets.items() if unit_of[pid] == unit)
    plan = hh.unit_plan(members, nets)
    reps = hh.representatives(members, nets)
    after = dict(summed)
    for t in plan:
        assert t.amount > 0
        a, b = unit_of[t.from_id], unit_of[t.to_id]
        assert a != b and reps[a] == t.from_id and reps[b] == t.to_id
        assert t.from_household == next((m.household for m in members
                                         if unit_of[m.participant_id] == a and m.household),
                                        None)
        after[a] += t.amount
        after[b] -= t.amount
    assert all(value == 0 for value in after.values())
    assert len(plan) <= len(settle_up(nets))


@settings(max_examples=200, deadline=None)
@given(group=groups())
def test_every_household_is_listed_with_its_members_summed_net(group):
    members, nets = group
    listed = hh.households(members, nets)
    keys = [hh.household_key(h.label) for h in listed]
    assert len(keys) == len(set(keys))
    assert set(keys) == {hh.household_key(m.household) for m in members if m.household}
    for h in listed:
        assert h.net == sum(nets[pid] for pid in h.participant_ids)


def test_the_representative_is_the_largest_net_then_the_earliest_entered():
    members = [hh.Member("b", "Home", "2026-01-02T00:00:00.000Z"),
               hh.Member("a", "home", "2026-01-03T00:00:00.000Z"),
               hh.Member("c", None, "2026-01-01T00:00:00.000Z")]
    assert hh.representatives(members, {"a": -50, "b": -50, "c": 100})["H:home"] == "b"
    assert hh.unit_plan(members, {"a": -50, "b": -50, "c": 100}) == [
        hh.UnitTransfer("b", "c", 100, "Home", None)]
    assert hh.unit_plan(members, {"a": -60, "b": -40, "c": 100})[0].from_id == "a"
