"""Builders shared by the money tests: users, groups, guests and expense bodies."""
from __future__ import annotations

from typing import Iterable, List, Optional, Sequence, Tuple

from app.ledger import balances
from app.core.access import Access, authorize
from app.groups.groups import create_group
from app.groups.participants import add_guest
from app.users.provisioning import provision_user
from models.groups import Balance

TEST_DOMAIN = "integ.example.test"


def make_user(email: str, name: Optional[str] = None) -> str:
    """A provisioned user id (same e-mail, same user)."""
    return provision_user(provider="local", subject=email, email=email,
                          display_name=name or email.split("@")[0], test_domain=TEST_DOMAIN)


def make_group(owner_id: str, currency: str = "EUR", guests: int = 2) -> Tuple[Access, List[str]]:
    """A group owned by ``owner_id`` with some guests; returns (owner access, participant ids)."""
    group = create_group(owner_id, name="Trip", currency=currency)
    access = authorize(owner_id, group.group_id, "MEMBER")
    ids = [access.participant_id]
    for index in range(guests):
        ids.append(add_guest(access, display_name=f"Guest {index}").ParticipantId)
    return access, ids


def equal_body(payer: str, amount: int, among: Sequence[str], *, date: str = "2026-11-28",
               description: str = "Dinner") -> dict:
    """Shorthand body: ``payer`` paid ``amount`` split equally among ``among``."""
    return {"description": description, "date": date,
            "payments": [{"participantId": payer, "amount": amount}],
            "amount": amount, "splitMode": "EQUAL",
            "splits": [{"participantId": pid} for pid in among]}


def stored_nets(group_id: str) -> dict:
    """Non-zero nets exactly as the balance row holds them (no backfill)."""
    raw = Balance.fetch_raw(group_id) or {}
    return {pid: net for pid, net in Balance.nets_of(raw).items() if net}


def assert_balance_matches_rows(group_id: str) -> None:
    """BALANCE#v1 equals a recomputation from every row, and the nets sum to zero."""
    raw = Balance.fetch_raw(group_id)
    recount = balances.recompute(group_id)
    assert stored_nets(group_id) == recount.nets
    main, other = balances.split_nets(recount.nets)
    assert sum(main.values()) == 0
    assert all(sum(nets.values()) == 0 for nets in other.values()), other  # each currency
    assert int(raw["ExpenseCount"]["N"]) == recount.expense_count
    assert int(raw["SettlementCount"]["N"]) == recount.settlement_count
    assert_pairs_match_rows(group_id, raw, recount)
    assert_users_map_matches_roster(group_id)  # who is an account (GET /users/me/people)


def assert_pairs_match_rows(group_id: str, raw: dict, recount) -> None:
    """The pairwise view's materialised pairs equal a recomputation, and in every currency
    section they net per participant to exactly that section's nets."""
    from app.money.pairwise import nets_of
    assert balances.served_pairs(raw) == recount.pairs
    main_pairs, kept_pairs = balances.split_pairs(recount.pairs)
    main, other = balances.split_nets(recount.nets)
    assert nets_of(main_pairs) == dict(sorted(main.items()))
    for currency in set(other) | set(kept_pairs):
        assert nets_of(kept_pairs.get(currency, {})) == dict(sorted(other.get(currency,
                                                                              {}).items()))


def ids_of(rows: Iterable[dict], key: str) -> List[str]:
    return [row[key] for row in rows]


def join_directly(group_id: str, user_id: str, role: str, name: str = "Member") -> str:
    """Make ``user_id`` a USER participant with ``role`` by writing the rows (test setup only)."""
    from app.core.clock import new_id, now_iso
    from models.groups import Participant, UserMember

    participant_id, now = new_id(), now_iso()
    Participant(group_id, Participant.sort_key(participant_id), ParticipantId=participant_id,
                Type="USER", UserId=user_id, DisplayName=name, Role=role, ClaimedAt=now,
                CreatedAt=now).save()
    UserMember(group_id, UserMember.sort_key(user_id), ParticipantId=participant_id, Role=role,
               CreatedAt=now).save()
    # as every real join does: the balance row files the account (GET /users/me/people)
    Balance(*Balance.key(group_id)).update(actions=[Balance.bind_user(participant_id, user_id)])
    return participant_id


def users_map_of_roster(group_id: str) -> dict:
    """USER participantId -> userId as the roster has it."""
    from models.groups import Participant
    return {p.ParticipantId: p.UserId for p in Participant.roster(group_id, consistent_read=True)
            if p.Type == "USER"}


def assert_users_map_matches_roster(group_id: str) -> None:
    """BALANCE#v1's Users set equals the roster's accounts (guests are not in it)."""
    assert Balance.users_of(Balance.fetch_raw(group_id)) == users_map_of_roster(group_id)
