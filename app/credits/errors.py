"""The credits' named errors (their codes and messages written once)."""
from __future__ import annotations

from app.errors import PaymentRequired


def insufficient_credits(balance: int, needed: int) -> PaymentRequired:
    return PaymentRequired("Not enough chat credits for this message.",
                           code="INSUFFICIENT_CREDITS",
                           details={"balance": balance, "needed": needed})
