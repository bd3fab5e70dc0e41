"""POST /users/me/people/{userId}/settle: one real payment to (or from) a person, recorded as
one settlement in every group we share whose plan has a transfer between us in that
direction and currency, all in one TransactWrite.

Each group's transfer is read from its balance row in the group's own default view (the
plan, or the pairwise debts: app.ledger.balances.sections), exactly as /users/me/people
sums them; a kept currency's section counts, its settlement kept in that currency (no
rate). The transaction conditions each balance row on the revision those amounts were read
at, so an expense or settlement landing meanwhile in any of the groups fails the whole
payment (nothing is written), and it is read and tried again: every settlement always
settles exactly the transfer its group shows at the commit. Per group four items (the
settlement, the balance row, the head's revision with its guard, the change row): at most
MAX_SETTLE_GROUPS groups fit the 100 items of one TransactWrite."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

from app.core.access import Access, authorize
from app.core.clock import today
from app.core.transactions import Transaction
from app.errors import Conflict, Invalid, concurrent_update
from app.insight.errors import NOTHING_BETWEEN_US, nothing_owed, too_many_groups
from app.ledger import balances, guards as money_guards, pay_links, settlements
from app.limits import MAX_SETTLE_GROUPS
from app.money import pay_methods
from app.people.people_balances import TOTAL_NOTE, pair_net
from app.people.shared_groups import SharedGroup, shared_groups
from models.groups import Balance
from models.payment_methods import PaymentMethods

PAY, RECEIVE = "PAY", "RECEIVE"
DIRECTIONS = (PAY, RECEIVE)
_ATTEMPTS = 3


class _PlanMoved(Conflict):
    """A group's balances changed after we read its transfer: read again."""


@dataclass(frozen=True)
class Leg:
    """One group's part of the payment."""

    group: SharedGroup
    them: str  # their participantId in that group
    amount: int
    currency: str
    kept: bool  # the section is a kept currency of the group (recorded without a rate)

    @property
    def revision(self) -> int:
        return Balance.revision_of(self.group.balance_raw) or 0


def legs_between(user_id: str, other_user_id: str, currency: str, direction: str) -> List[Leg]:
    """Every shared group's transfer between us in ``currency`` and ``direction`` (PAY: I
    pay them), from one read of the groups' balance rows."""
    legs = []
    for group in shared_groups(user_id):
        them = group.participant_of(other_user_id)
        if them is None or them == group.participant_id:
            continue
        for section, transfers in balances.sections(group.currency, group.balance_raw):
            if section != currency:
                continue
            owed_to_me = pair_net(transfers, group.participant_id, them)
            amount = -owed_to_me if direction == PAY else owed_to_me
            if amount > 0:
                legs.append(Leg(group, them, amount, currency,
                                kept=section != group.currency))
    return legs


def _write(user_id: str, legs: List[Leg], direction: str, date: str,
           note: Optional[str]) -> List[dict]:
    tx = Transaction()
    written = []
    for leg in legs:
        access: Access = authorize(user_id, leg.group.group_id, "MEMBER")
        me = access.participant_id
        payer, payee = (me, leg.them) if direction == PAY else (leg.them, me)
        row = settlements.new_row(access, payer, payee, leg.amount, date, note,
                                  {"Currency": leg.currency if leg.kept else None})
        money_guards.check_money_write(tx, access, (payer, payee))
        settlements.add_settlement(
            tx, access, row, balance_read=leg.group.balance_raw, balance_revision=leg.revision,
            on_fail=_PlanMoved("The balances changed meanwhile."))
        written.append({"groupId": leg.group.group_id, "settlementId": row.SettlementId,
                        "amount": leg.amount})
    tx.commit()
    return written


def settle_with_person(user_id: str, other_user_id: str, *, currency: str, direction: str,
                       date: Optional[str] = None, note: Optional[str] = None) -> dict:
    """Record one payment between the caller and ``other_user_id`` as a settlement in each
    shared group with a transfer between us (201 reply body)."""
    if other_user_id == user_id:
        raise Invalid("Settle with someone else.", details={"userId": ["Not yourself."]})
    day = date or today()
    settlements.check_fields("a", "b", 1, day, note)  # the date and note rules
    for _ in range(_ATTEMPTS):
        legs = legs_between(user_id, other_user_id, currency, direction)
        if not legs:
            raise nothing_owed(NOTHING_BETWEEN_US)
        if len(legs) > MAX_SETTLE_GROUPS:
            raise too_many_groups(len(legs), MAX_SETTLE_GROUPS)
        try:
            written = _write(user_id, legs, direction, day, note)
        except _PlanMoved:
            continue
        total = sum(leg.amount for leg in legs)
        return {"settlements": written, "total": total, "currency": currency,
                "direction": direction, "payTo": _pay_to(user_id, other_user_id, direction,
                                                          total, currency)}
    raise concurrent_update("The balances keep changing; try again.")


def _pay_to(user_id: str, other_user_id: str, direction: str, total: int,
            currency: str) -> list:
    """Links to pay the total to the payee (them for PAY, the caller for RECEIVE)."""
    payee = other_user_id if direction == PAY else user_id
    entries = PaymentMethods.of_users([payee]).get(payee, [])
    return pay_methods.links([pay_links.method_of_raw(e) for e in entries], amount=total,
                             currency=currency, note=TOTAL_NOTE)
