"""Bills split by member weights (ihatemoney, Cospend): one payer, owers sharing by weight.

Both apps compute each ower's share as ``amount * weight / total weight`` in floating point
and show each member's balance rounded to the cent. Here every bill's shares are whole minor
units that add up to its amount (EXACT splits, so nets always sum to 0), and the leftover
units of each bill go to the owers whose running total is furthest below their exact
running share: each member's imported net stays within a cent of the exact balance, and
equals the source's rounded one unless those rounded balances do not themselves add up to
0. The exact balances, rounded, are kept as the file's totals, so the import warns about
any member whose net still differs from what the source shows."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
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


# Weights are kept to WEIGHT_PLACES decimals (Cospend writes a float's repr, e.g. 1.5 or
# 0.33333333333333): integer_weights then yields integers below 10^13, so a file of
# 100,000-decimal weights costs no more per bill than one of 1 and 2.
WEIGHT_PLACES = 6
MAX_WEIGHT = Decimal(10) ** 6


def weight_of(value, line: Optional[int]) -> Decimal:
    weight = decimal_of(value if value not in (None, "") else 1, line, "The weight")
    if not 0 < weight <= MAX_WEIGHT:
        raise ImportFileError(line, f"A weight must be above 0 and at most {MAX_WEIGHT}.")
    rounded = weight.quantize(Decimal(1).scaleb(-WEIGHT_PLACES))
    if rounded <= 0:
        raise ImportFileError(line, f"A weight must be at least 0.{'0' * (WEIGHT_PLACES - 1)}1.")
    return rounded.normalize()


class Bills:
    """The bills of one file, split with running totals per currency (see the module)."""

    def __init__(self, parsed: Parsed, weights: Dict[str, Decimal]) -> None:
        self.parsed = parsed
        self.weights = weights
        self.exact: Dict[str, Dict[str, Fraction]] = {}  # currency -> member -> exact net
        self.given: Dict[str, Dict[str, int]] = {}  # currency -> member -> owed so far
        self.owed_exact: Dict[str, Dict[str, Fraction]] = {}

    def add(self, line: int, *, date: str, what: str, amount_value, currency: str, payer: str,
            owers: List[str], reimbursement: bool, category: Optional[str] = None) -> None:
        """One bill as an expense (or, a reimbursement to one member, a settlement)."""
        parsed = self.parsed
        amount, exact = to_minor(amount_value, currency, line, "The amount")
        if not exact:
            parsed.warn(line, f"The amount {amount_value} has more decimals than {currency}: "
                              f"rounded to {amount} minor units.")
        owers = list(dict.fromkeys(owers))
        if amount <= 0 or not owers:
            parsed.skip(line, "A bill of amount 0 or less, or owed by nobody: skipped.")
            return
        nets = self.exact.setdefault(currency, {})
        nets[payer] = nets.get(payer, Fraction(0)) + amount
        if reimbursement and len(owers) == 1 and owers[0] != payer:
            nets[owers[0]] = nets.get(owers[0], Fraction(0)) - amount
            parsed.rows.append(Row(line=line, kind=SETTLEMENT, date=date, currency=currency,
                                   payer=payer, payee=owers[0], amount=amount,
                                   note=what or None))
            return
        shares = integer_weights({key: self.weights.get(key, Decimal(1)) for key in owers}, line)
        total = sum(shares.values())
        exact_shares = {key: Fraction(amount * shares[key], total) for key in owers}
        for key, share in exact_shares.items():
            nets[key] = nets.get(key, Fraction(0)) - share
        owed = self._apportion(currency, amount, exact_shares)
        if any(share.denominator != 1 for share in exact_shares.values()):
            parsed.warn(line, "Shares are not whole cents: each is rounded to within one cent "
                              "so that they add up to the amount.")
        parsed.rows.append(Row(line=line, kind=EXPENSE, date=date, currency=currency,
                               description=what or "Bill", category=category,
                               payments=[(payer, amount)],
                               items=[Item(what or "Bill", amount, "EXACT",
                                           [(key, owed[key]) for key in owers if owed[key]])]))

    def _apportion(self, currency: str, amount: int,
                   exact_shares: Dict[str, Fraction]) -> Dict[str, int]:
        """Floors, then the leftover units to the owers whose running owed total lags their
        running exact share the most (first listed wins a tie)."""
        given = self.given.setdefault(currency, {})
        running = self.owed_exact.setdefault(currency, {})
        owed = {key: share.numerator // share.denominator for key, share in exact_shares.items()}
        keys = list(exact_shares)
        lag = {key: running.get(key, Fraction(0)) + exact_shares[key]
               - given.get(key, 0) - owed[key] for key in keys}
        leftover = amount - sum(owed.values())
        for key in sorted(keys, key=lambda k: (-lag[k], keys.index(k)))[:leftover]:
            owed[key] += 1
        for key in keys:
            running[key] = running.get(key, Fraction(0)) + exact_shares[key]
            given[key] = given.get(key, 0) + owed[key]
        return owed

    def finish(self) -> None:
        """Record the source's balances (exact, rounded half-even to a minor unit) as the
        file's totals (a currency of "" is the group's main one, settled later)."""
        for currency, nets in self.exact.items():
            self.parsed.totals[currency] = (None, {key: round(value)
                                                   for key, value in nets.items()})
