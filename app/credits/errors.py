"""The credits' named errors (their codes and messages written once)."""
from __future__ import annotations

from app.errors import DomainError


class PaymentRequired(DomainError):
    """Out of a budget that only more credit buys (402)."""

    status = 402
    code = "PAYMENT_REQUIRED"


def insufficient_credits(balance: int, needed: int) -> PaymentRequired:
    return PaymentRequired("Not enough chat credits for this message.",
                           code="INSUFFICIENT_CREDITS",
                           details={"balance": balance, "needed": needed})
