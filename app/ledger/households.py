"""Households: the participants who settle up as one unit (api.md "Money as people share it").

A participant's ``household`` is a label (at most MAX_HOUSEHOLD characters, trimmed);
labels name the same household case-insensitively within a group. Setting one reuses the
spelling the group already uses for it, and a household shows the label of the member who
set it first (HouseholdSetAt), so two people typing "smiths" and "Smiths" meet in one
household under one name. Balances read the roster's labels as :func:`members` for the unit
settle-up (app.money.households); the groups area's participant edit sets them."""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional

from app.errors import Invalid
from app.limits import MAX_HOUSEHOLD
from app.money.households import Member, household_key
from models.groups import Participant


def checked_label(label: str) -> str:
    """A label as stored: trimmed, 1..MAX_HOUSEHOLD characters, or Invalid."""
    trimmed = label.strip() if isinstance(label, str) else ""
    if not trimmed or len(trimmed) > MAX_HOUSEHOLD:
        raise Invalid(f"household must be 1 to {MAX_HOUSEHOLD} characters (null clears it).",
                      details={"household": [f"1 to {MAX_HOUSEHOLD} characters, or null."]})
    return trimmed


def spelled_as_the_group_does(roster: Iterable[Participant], label: str,
                              participant_id: str) -> str:
    """The label as the group's first setter spelled it, or ``label`` for a new household."""
    shown = first_labels(p for p in roster if p.ParticipantId != participant_id)
    return shown.get(household_key(label), label)


def first_labels(roster: Iterable[Participant]) -> Dict[str, str]:
    """household key -> the label of the member who set it first."""
    earliest: Dict[str, tuple] = {}
    for p in roster:
        if p.Household:
            rank = (p.HouseholdSetAt or "", p.ParticipantId)
            key = household_key(p.Household)
            if key not in earliest or rank < earliest[key][0]:
                earliest[key] = (rank, p.Household)
    return {key: label for key, (_, label) in earliest.items()}


def entered(p: Participant) -> str:
    """When a participant entered the group: a user's claim, else the row's creation."""
    return p.ClaimedAt or p.CreatedAt or ""


def members(roster: List[Participant]) -> Optional[List[Member]]:
    """The roster as the unit settle-up's members, each with its household's shown label,
    in the order they entered the group; None when nobody has a household (balances then
    stay per person)."""
    if not any(p.Household for p in roster):
        return None
    shown = first_labels(roster)
    # In the order they entered the group: households list their members so, and the
    # households come in the order their first member entered.
    return [Member(p.ParticipantId, shown[household_key(p.Household)] if p.Household else None,
                   entered(p)) for p in sorted(roster, key=lambda p: (entered(p),
                                                                      p.ParticipantId))]
