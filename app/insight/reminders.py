"""POST /groups/{groupId}/reminders: nudge a user who, in the settle-up plan, pays the caller.

What is owed comes from the same plan balances serves (main currency and each kept-currency
section), with the same ``payTo`` links (app.ledger.pay_links), so a reminder
never names an amount balances would not tell the recipient to pay.

One reminder per sender, recipient and group per interval: a marker row in the rate-limits
table, created under "absent or expired" (TTL deletion is lazy, so the condition reads
ExpiresAt too), commits in one TransactWrite with the REMINDER outbox event and the sender's
live-account check. Two parallel sends: one marker, one event; the other hears
REMINDER_TOO_SOON with the seconds until the winner's marker expires."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

from app.errors import participant_unavailable
from app.insight.errors import nothing_owed, reminder_too_soon
from app.limits import REMINDER_INTERVAL_SECONDS
from app.core import outbox
from app.core.access import Access
from app.core.clock import epoch, new_id
from app.core.transactions import Transaction
from app.ledger.pay_links import with_pay_to
from app.ledger import balances
from models.rate_limits import RateLimitItem, ReminderMarker


@dataclass(frozen=True)
class Owed:
    """One currency's amount the recipient pays the caller, and how to pay it."""

    currency: str
    amount: int
    pay_to: tuple = ()


@dataclass(frozen=True)
class Reminder:
    participant_id: str
    owed: List[Owed]
    next_reminder_at: int  # unix seconds


def owed_to_caller(result: balances.Balances, payer_id: str, payee_id: str) -> List[Owed]:
    """The plan's transfers from ``payer_id`` to ``payee_id``, per currency section."""
    sections = [(result.currency, result.transfers)]
    sections += [(section.currency, section.transfers) for section in result.other_currencies]
    return [Owed(currency, transfer.amount, transfer.pay_to)
            for currency, transfers in sections for transfer in transfers
            if transfer.from_id == payer_id and transfer.to_id == payee_id]


def _retry_after(old: Optional[dict], now: int) -> int:
    marker = ReminderMarker.from_raw(old)
    expires = int(marker.ExpiresAt) if marker is not None and marker.ExpiresAt else now + 1
    return expires - now


def send_reminder(access: Access, participant_id: str) -> Reminder:
    """Write the marker and the REMINDER event, or refuse (409 PARTICIPANT_UNAVAILABLE,
    409 NOTHING_OWED, 429)."""
    # Person to person: households' unit plan would route this through a representative.
    result = with_pay_to(balances.group_balances(access, units=False),
                         group_name=access.group.Name)
    if participant_id not in {row.participant_id for row in result.rows}:
        # As the expense and settlement writers answer a body's unknown participantId: the
        # group exists (404 would say it does not), one of the body's ids is not in it.
        raise participant_unavailable(participant_id)
    recipient = result.user_ids.get(participant_id)
    owed = owed_to_caller(result, participant_id, access.participant_id) if recipient else []
    if not owed or recipient == access.user_id:
        raise nothing_owed()
    now = epoch()
    expires = now + REMINDER_INTERVAL_SECONDS
    marker = ReminderMarker(ReminderMarker.key(access.group_id, access.user_id, recipient),
                            ExpiresAt=expires)
    tx = Transaction().require_live_account(access.user_id)
    tx.put(marker, condition=RateLimitItem.Key.does_not_exist() | (RateLimitItem.ExpiresAt <= now),
           on_fail=lambda old: reminder_too_soon(_retry_after(old, now)))
    outbox.add_event(tx, "REMINDER", scope_id=access.group_id, resource_id=participant_id,
                     revision=new_id(), actor_user_id=access.user_id, group_id=access.group_id,
                     recipients={recipient},
                     payload={"owed": [{"currency": item.currency, "amount": item.amount,
                                        "payTo": [dict(link) for link in item.pay_to]}
                                       for item in owed]})
    tx.commit()
    return Reminder(participant_id, owed, expires)
