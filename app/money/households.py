"""Households: participants who settle up as one unit (pure arithmetic, no rows).

A household is the participants sharing a ``household`` label (compared case-insensitively);
everyone else is a unit of their own. A unit's net is the sum of its members' nets, and the
settle-up plan moves money between units: each transfer is paid by the paying unit's
representative to the receiving unit's representative, the member with the largest
absolute net (ties to whoever entered the group first). Per-person nets never change.

The unit plan is the shorter of the minimal plan over unit nets and the per-person plan
with each payment read between units (payments inside a unit dropped, payments between the
same two units summed), so it settles every unit to 0 and is never longer than the
per-person plan, even past the exact search's size (app.money.settle)."""
from __future__ import annotations

from typing import Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from app.money.settle import settle_up


def household_key(label: str) -> str:
    """The key two labels share when they name the same household."""
    return label.strip().casefold()


class Member(NamedTuple):
    participant_id: str
    household: Optional[str]  # the label as stored, or None
    entered: str  # when they entered the group (ISO), for representative ties


class Household(NamedTuple):
    label: str
    participant_ids: List[str]
    net: int


class UnitTransfer(NamedTuple):
    from_id: str
    to_id: str
    amount: int
    from_household: Optional[str]
    to_household: Optional[str]


def units(members: Sequence[Member]) -> Dict[str, str]:
    """participantId -> unit id: ``H:<key>`` for a household member, the participantId
    otherwise (the two never collide: ids are UUIDs)."""
    return {m.participant_id: f"H:{household_key(m.household)}" if m.household
            else m.participant_id for m in members}


def households(members: Sequence[Member], nets: Mapping[str, int]) -> List[Household]:
    """Every household (zero nets included) in the members' order of first appearance,
    under the first member's label (callers pass each member the label to show), with its
    members' summed net."""
    found: Dict[str, Household] = {}
    for m in members:
        if not m.household:
            continue
        key = household_key(m.household)
        if key not in found:
            found[key] = Household(m.household, [], 0)
        found[key].participant_ids.append(m.participant_id)
    return [h._replace(net=sum(nets.get(pid, 0) for pid in h.participant_ids))
            for h in found.values()]


def representatives(members: Sequence[Member], nets: Mapping[str, int]) -> Dict[str, str]:
    """unit id -> its representative: the largest |net|, ties to the earliest entered, then
    the smallest participantId (so a plan never depends on roster order)."""
    unit_of = units(members)
    best: Dict[str, Tuple] = {}
    for m in members:
        rank = (-abs(nets.get(m.participant_id, 0)), m.entered, m.participant_id)
        unit = unit_of[m.participant_id]
        if unit not in best or rank < best[unit]:
            best[unit] = rank
    return {unit: rank[2] for unit, rank in best.items()}


def unit_nets(members: Sequence[Member], nets: Mapping[str, int]) -> Dict[str, int]:
    """unit id -> the sum of its members' nets (a net of someone not in ``members`` is a
    unit of its own, as a former participant's)."""
    unit_of = units(members)
    summed: Dict[str, int] = {}
    for pid, net in nets.items():
        unit = unit_of.get(pid, pid)
        summed[unit] = summed.get(unit, 0) + net
    return summed


def _between_units(person_plan: Sequence[Tuple[str, str, int]],
                   unit_of: Mapping[str, str]) -> List[Tuple[str, str, int]]:
    """A per-person plan read between units: payments inside a unit dropped, payments
    between the same two units netted into one."""
    moved: Dict[Tuple[str, str], int] = {}
    for payer, payee, amount in person_plan:
        a, b = unit_of.get(payer, payer), unit_of.get(payee, payee)
        if a == b:
            continue
        if (b, a) in moved:
            moved[(b, a)] -= amount
        else:
            moved[(a, b)] = moved.get((a, b), 0) + amount
    plan = []
    for (a, b), amount in moved.items():
        if amount > 0:
            plan.append((a, b, amount))
        elif amount < 0:
            plan.append((b, a, -amount))
    return plan


def unit_plan(members: Sequence[Member], nets: Mapping[str, int]) -> List[UnitTransfer]:
    """The settle-up plan between units, each transfer between representatives."""
    unit_of = units(members)
    summed = unit_nets(members, nets)
    plan = settle_up(summed)
    person = _between_units(settle_up(dict(nets)), unit_of)
    if len(person) < len(plan):
        plan = person
    reps = representatives(members, nets)
    labels: Dict[str, str] = {}
    for m in members:
        if m.household:
            labels.setdefault(unit_of[m.participant_id], m.household)  # as households() shows
    return [UnitTransfer(reps.get(a, a), reps.get(b, b), amount, labels.get(a), labels.get(b))
            for a, b, amount in plan]
