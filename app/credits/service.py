"""Credit: a monthly free allowance, admin grants and refunds, and a ledger of every move.
A chat message spends it, and so does a receipt scan.

The balance row carries a Version that every change bumps; admission writes the balance it
computed from the version it read, conditioned on that version, so parallel messages can
never spend the same credit twice (the loser re-reads and tries again, or hears 402)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from app.credits.errors import insufficient_credits  # noqa: F401 - callers raise it from here
from app.errors import not_found
from app.core import paging
from app.core.clock import new_id, now_iso
from app.core.transactions import Transaction
from models.users import ChatBalance, LedgerEntry

GRANT, SPEND, REFUND, ALLOWANCE = "ADMIN_GRANT", "MESSAGE", "REFUND", "MONTHLY_ALLOWANCE"
RECEIPT_SCAN = "RECEIPT_SCAN"  # a receipt scan's spend, listed apart in /users/me/credits


def period_of(at: str) -> str:
    return at[:7]


@dataclass(frozen=True)
class Standing:
    """A user's credit as of one read: what is spendable, and the version it was read at."""

    free: int
    credits: int
    messages: int
    version: int
    exists: bool
    fresh_allowance: bool  # this read starts a new period: its allowance is granted now

    @property
    def balance(self) -> int:
        return self.free + self.credits


def standing(user_id: str, at: str, monthly: int) -> Standing:
    """The balance as of ``at``: a period with no row yet starts with the full allowance."""
    try:
        row = ChatBalance.get(*ChatBalance.key(user_id), consistent_read=True)
    except ChatBalance.DoesNotExist:
        return Standing(monthly, 0, 0, 0, False, monthly > 0)
    same = row.Period == period_of(at)
    return Standing(int(row.Free) if same else monthly, int(row.Credits),
                    int(row.Messages) if same else 0, int(row.Version), True,
                    not same and monthly > 0)


def _entry(user_id: str, at: str, delta: int, reason: str, *, session_id=None,
           message_id=None) -> LedgerEntry:
    return LedgerEntry(user_id, LedgerEntry.sort_key(at, new_id()), Delta=delta, Reason=reason,
                       SessionId=session_id, MessageId=message_id, CreatedAt=at)


def reserve(tx: Transaction, user_id: str, now: Standing, cost: int, at: str, *,
            monthly: int, session_id: str, message_id: str, on_lost,
            reason: str = SPEND) -> int:
    """Spend ``cost`` (free allowance first) in ``tx``; returns the part taken from the
    allowance. The caller checked ``now.balance >= cost``; the version condition makes
    that check hold at commit."""
    from_free = min(cost, now.free)
    row = ChatBalance(*ChatBalance.key(user_id), Free=now.free - from_free,
                      Credits=now.credits - (cost - from_free), Period=period_of(at),
                      Messages=now.messages + 1, Version=now.version + 1, UpdatedAt=at)
    condition = (ChatBalance.Version == now.version) if now.exists else \
        ChatBalance.SK.does_not_exist()
    tx.put(row, condition=condition, on_fail=on_lost)
    if now.fresh_allowance:
        tx.put(_entry(user_id, at, monthly, ALLOWANCE), condition=LedgerEntry.SK.does_not_exist())
    tx.put(_entry(user_id, at, -cost, reason, session_id=session_id, message_id=message_id),
           condition=LedgerEntry.SK.does_not_exist())
    return from_free


def refund(tx: Transaction, user_id: str, cost: int, at: str, *, session_id: str,
           message_id: str) -> None:
    """Give back a failed message's credits (as kept credit: the allowance it came from may
    have ended meanwhile) in ``tx``."""
    if cost <= 0:
        return
    tx.update(ChatBalance(*ChatBalance.key(user_id)),
              [ChatBalance.Credits.add(cost), ChatBalance.Version.add(1),
               ChatBalance.UpdatedAt.set(at)])
    tx.put(_entry(user_id, at, cost, REFUND, session_id=session_id, message_id=message_id),
           condition=LedgerEntry.SK.does_not_exist())


def grant(user_id: str, delta: int, reason: str, *, monthly: int) -> Standing:
    """An admin's grant of ``delta`` credits to a live account (else 404), with its entry."""
    at = now_iso()
    tx = Transaction()
    tx.require_live_account(user_id, on_fail=not_found("User"))
    tx.update(ChatBalance(*ChatBalance.key(user_id)),
              [ChatBalance.Credits.add(delta), ChatBalance.Version.add(1),
               ChatBalance.UpdatedAt.set(at)])
    tx.put(_entry(user_id, at, delta, f"{GRANT}: {reason}"[:200]),
           condition=LedgerEntry.SK.does_not_exist())
    tx.commit()
    return standing(user_id, at, monthly)


@dataclass(frozen=True)
class CreditsPage:
    balance: int
    items: list
    next_cursor: Optional[str]


def credits_page(user_id: str, *, monthly: int, limit: Optional[int], cursor: Optional[str],
                 scope: str) -> CreditsPage:
    """The balance and a page of the ledger, newest first."""
    now = standing(user_id, now_iso(), monthly)
    rows = LedgerEntry.newest_first(user_id, limit=paging.clamp_limit(limit),
                                    last_evaluated_key=paging.decode(cursor, scope))
    page = paging.page_of(rows, scope)
    return CreditsPage(balance=now.balance, items=page.items, next_cursor=page.next_cursor)
