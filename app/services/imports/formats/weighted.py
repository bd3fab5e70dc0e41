"""Bills split by member weights (ihatemoney, Cospend): one payer, owers sharing by weight.

Both apps compute each ower's share as ``amount * weight / total weight`` in floating point
and show balances rounded to the cent. Here each bill's shares are apportioned in whole
minor units by largest remainder (the cent a float sum would round towards goes to the ower
whose exact share is closest to it), recorded as EXACT splits, so nets always sum to 0 and
match what the source shows; a bill whose shares are not whole cents is flagged as rounded.
"""
from __future__ import annotations

from decimal import Decimal
from math import gcd
from typing import Dict, List, Optional

from app.services.imports.amounts import decimal_of, to_minor
from app.services.imports.model import (EXPENSE, SETTLEMENT, ImportFileError, Item, Parsed,
                                        Row)


def integer_weights(weights: Dict[str, Decimal], line: Optional[int]) -> Dict[str, int]:
    """Decimal weights as the smallest proportional positive integers (1.5, 1 -> 3, 2)."""
    if any(w <= 0 for w in weights.values()):
        raise ImportFileError(line, "Every ower needs a positive weight.")
    places = max(max(-w.normalize().as_tuple().exponent, 0) for w in weights.values())
    scaled = {key: int(w.scaleb(places)) for key, w in weights.items()}
    common = 0
    for value in scaled.values():
        common = gcd(common, value)
    return {key: value // common for key, value in scaled.items()}


def weight_of(value, line: Optional[int]) -> Decimal:
    return decimal_of(value if value not in (None, "") else 1, line, "The weight")


def add_bill(parsed: Parsed, line: int, *, date: str, what: str, amount_value, currency: str,
             payer: str, owers: List[str], weights: Dict[str, Decimal],
             reimbursement: bool, category: Optional[str] = None) -> None:
    """One bill as an expense (or, a reimbursement to one member, a settlement)."""
    amount, exact = to_minor(amount_value, currency, line, "The amount")
    if not exact:
        parsed.warn(line, f"The amount {amount_value} has more decimals than {currency}: "
                          f"rounded to {amount} minor units.")
    owers = list(dict.fromkeys(owers))
    if amount <= 0 or not owers:
        parsed.skip(line, "A bill of amount 0 or less, or owed by nobody: skipped.")
        return
    if reimbursement and len(owers) == 1 and owers[0] != payer:
        parsed.rows.append(Row(line=line, kind=SETTLEMENT, date=date, currency=currency,
                               payer=payer, payee=owers[0], amount=amount, note=what or None))
        return
    shares = integer_weights({key: weights.get(key, Decimal(1)) for key in owers}, line)
    owed = largest_remainder(amount, [shares[key] for key in owers])
    if any(amount * share % sum(shares.values()) for share in shares.values()):
        parsed.warn(line, "Shares are not whole cents: each is rounded to within one cent "
                          "so that they add up to the amount.")
    parsed.rows.append(Row(line=line, kind=EXPENSE, date=date, currency=currency,
                           description=what or "Bill", category=category,
                           payments=[(payer, amount)],
                           items=[Item(what or "Bill", amount, "EXACT",
                                       [(key, value) for key, value in zip(owers, owed,
                                                                           strict=True)
                                        if value])]))


def largest_remainder(amount: int, weights: List[int]) -> List[int]:
    """``amount`` split in proportion to ``weights``, whole units summing to ``amount``: the
    floors, then one more unit each to the largest fractional parts (first wins a tie)."""
    total = sum(weights)
    owed = [amount * w // total for w in weights]
    order = sorted(range(len(weights)), key=lambda i: (-(amount * weights[i] % total), i))
    for index in order[:amount - sum(owed)]:
        owed[index] += 1
    return owed
