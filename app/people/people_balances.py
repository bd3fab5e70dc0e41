"""GET /users/me/people: who owes me, and whom I owe, across all my groups, by account.

Per group and currency section the amount between me and another account is the sum of the
transfers between our two participants in that section's transfers in the group's default
view (the settle-up plan, or the pairwise debts when the group's simplifyDebts is off), so it
always agrees with what balances tells both of us to pay.
Summed per currency over the groups; ``net`` > 0 means they owe me.

Reads, however many expenses the groups hold:
- the caller's memberships: one UserParticipantsIndex Query (per 1 MB page);
- each group's BALANCE#v1 row: one BatchGetItem per 100 groups, the first also reading the
  caller's profile (the request's liveness check: app.people.shared_groups). The
  row carries the head's name and currency (no head is read) and the ``Users`` map (USER
  participantId -> userId, kept by every roster change that binds or unbinds an account),
  so no roster is read and guests are never taken for people;
- the people's profiles, and the payment methods of those the caller owes (``payTo``): one
  BatchGetItem of the Users table per 100 keys."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Mapping, Optional, Tuple

from app.money import pay_methods
from app.ledger.pay_links import method_of_raw, note_for
from app.ledger import balances
from app.people.shared_groups import SharedGroup, shared_groups
from models.payment_methods import PAYMENT_METHODS, PaymentMethods
from models.users import Profile, UserItem

TOTAL_NOTE = "TailSpend"


@dataclass
class Person:
    user_id: str
    nets: Dict[str, int] = field(default_factory=dict)
    groups: List[dict] = field(default_factory=list)


def pair_net(transfers: Iterable[balances.Transfer], me: str, them: str) -> int:
    """What ``them`` pays ``me`` in one plan, minus what ``me`` pays ``them``."""
    net = 0
    for transfer in transfers:
        if transfer.from_id == them and transfer.to_id == me:
            net += transfer.amount
        elif transfer.from_id == me and transfer.to_id == them:
            net -= transfer.amount
    return net


def group_sections(main_currency: str, balance_raw: Optional[dict]) -> List[Tuple[str, list]]:
    """[(currency, transfers)] of one group in its default view (simplifyDebts: the plan,
    or the pairwise debts): the main currency first, then each kept one."""
    return balances.sections(main_currency, balance_raw)


def _add_group(people: Dict[str, Person], group: SharedGroup, caller: str) -> None:
    me = group.participant_id
    sections = group_sections(group.currency, group.balance_raw)
    for pid, user_id in group.users.items():
        if user_id == caller or pid == me:
            continue
        person = people.setdefault(user_id, Person(user_id))
        for currency, transfers in sections:
            net = pair_net(transfers, me, pid)
            if net == 0 and currency != group.currency:
                continue  # a kept section between us only when something is owed in it
            person.nets[currency] = person.nets.get(currency, 0) + net
            person.groups.append({"groupId": group.group_id, "name": group.name,
                                  "currency": currency, "net": net})


def _users_rows(people: Mapping[str, Person]) -> Tuple[Dict[str, Profile], Dict[str, list]]:
    """Profiles of everyone, methods of those the caller owes: one BatchGetItem per 100 keys."""
    owed = {uid for uid, p in people.items() if any(v < 0 for v in p.nets.values())}
    keys = [Profile.key(uid) for uid in sorted(people)] + [PaymentMethods.key(uid)
                                                           for uid in sorted(owed)]
    raw = UserItem.raw_batch_get(keys)
    profiles, methods = {}, {}
    for (uid, sk), item in raw.items():
        if sk == PAYMENT_METHODS:
            methods[uid] = [method_of_raw(m) for m in PaymentMethods.entries_of(item)]
            continue
        row = UserItem.from_raw_data(item)
        if isinstance(row, Profile):
            profiles[uid] = row
    return profiles, methods


def _pay_to(methods: list, net: int, currency: str, note: str) -> list:
    if net >= 0 or not methods:
        return []
    return pay_methods.links(methods, amount=-net, currency=currency, note=note)


def my_people(user_id: str, groups: Optional[List[SharedGroup]] = None) -> List[dict]:
    """Everyone the caller shares a live group with, by account; all-zero people last.
    ``groups``: the caller's shared_groups when already read (the digest run's)."""
    people: Dict[str, Person] = {}
    for group in shared_groups(user_id) if groups is None else groups:
        _add_group(people, group, user_id)
    profiles, methods = _users_rows(people)
    out = []
    for uid, person in people.items():
        profile = profiles.get(uid)
        if profile is None or profile.deleting:
            continue  # an account being deleted: its participants are turning into guests
        mine = methods.get(uid, [])
        entry = {"userId": uid, "displayName": profile.DisplayName,
                 "nets": [{"currency": c, "net": v,
                           "payTo": _pay_to(mine, v, c, TOTAL_NOTE)}
                          for c, v in sorted(person.nets.items())],
                 "groups": [dict(g, payTo=_pay_to(mine, g["net"], g["currency"],
                                                  note_for(g["name"])))
                            for g in sorted(person.groups,
                                            key=lambda g: (g["name"].casefold(), g["groupId"],
                                                           g["currency"]))]}
        if profile.Handle:
            entry["handle"] = profile.Handle
        out.append(entry)
    out.sort(key=lambda e: (all(n["net"] == 0 for n in e["nets"]),
                            e["displayName"].casefold(), e["userId"]))
    return out
