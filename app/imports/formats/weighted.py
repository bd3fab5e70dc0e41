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
from math import gcd
from typing import Dict, List, Optional

from app.money.splits import MAX_AMOUNT
from app.imports.amounts import decimal_of, to_minor
from app.imports.formats.text import CellBudget
from app.imports.model import EXPENSE, SETTLEMENT, ImportFileError, Item, Parsed, Row


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


# Exact shares are carried as integers of 1/SCALE minor unit (floored): Fractions over
# thousands of bills grow their denominators without bound, and that cost a 5 MB file
# minutes. An error below 10^-12 of a cent per bill cannot change which ower a leftover unit
# goes to except in exact ties, which the listed order breaks either way.
SCALE = 10 ** 12


class Bills:
    """The bills of one file, split with running totals per currency (see the module)."""

    def __init__(self, parsed: Parsed, weights: Dict[str, Decimal]) -> None:
        self.parsed = parsed
        self.weights = weights
        self.exact: Dict[str, Dict[str, int]] = {}  # currency -> member -> net x SCALE
        self.given: Dict[str, Dict[str, int]] = {}  # currency -> member -> owed so far
        self.owed_exact: Dict[str, Dict[str, int]] = {}  # ... exact owed so far x SCALE
        self.budget = CellBudget()
        self._weights_of: Dict[tuple, Dict[str, int]] = {}

    def add(self, line: int, *, date: str, what: str, amount_value, currency: str, payer: str,
            owers: List[str], reimbursement: bool, category: Optional[str] = None) -> None:
        """One bill as an expense (a reimbursement: to one member a settlement, to several
        an income)."""
        parsed = self.parsed
        amount, exact = to_minor(amount_value, currency, line, "The amount")
        if not exact:
            parsed.warn(line, f"The amount {amount_value} has more decimals than {currency}: "
                              f"rounded to {amount} minor units.")
        owers = list(dict.fromkeys(owers))
        self.budget.spend(len(owers), line)
        if amount <= 0 or not owers:
            parsed.skip(line, "A bill of amount 0 or less, or owed by nobody: skipped.")
            return
        if amount > MAX_AMOUNT:
            raise ImportFileError(line, f"The amount is past {MAX_AMOUNT} minor units.")
        nets = self.exact.setdefault(currency, {})
        nets[payer] = nets.get(payer, 0) + amount * SCALE
        if reimbursement and len(owers) == 1 and owers[0] != payer:
            nets[owers[0]] = nets.get(owers[0], 0) - amount * SCALE
            parsed.rows.append(Row(line=line, kind=SETTLEMENT, date=date, currency=currency,
                                   payer=payer, payee=owers[0], amount=amount,
                                   note=what or None))
            return
        shares = self._shares(tuple(owers), line)
        total = sum(shares.values())
        scaled = {key: amount * shares[key] * SCALE // total for key in owers}
        for key, share in scaled.items():
            nets[key] = nets.get(key, 0) - share
        owed = self._apportion(currency, amount, shares, total, scaled)
        if any(amount * share % total for share in shares.values()):
            parsed.warn(line, "Shares are not whole cents: each is rounded to within one cent "
                              "so that they add up to the amount.")
        if reimbursement:
            # Money the owers received on the payer's account (ihatemoney 7's reimbursement
            # bill: the payer transferred, each ower received their share): an income the
            # owers received and the payer owns, with the bill's nets exactly.
            parsed.rows.append(Row(line=line, kind=EXPENSE, date=date, currency=currency,
                                   description=what or "Reimbursement", category=category,
                                   payments=[(key, owed[key]) for key in owers if owed[key]],
                                   items=[Item(what or "Reimbursement", amount, "EXACT",
                                               [(payer, amount)])], income=True))
            return
        parsed.rows.append(Row(line=line, kind=EXPENSE, date=date, currency=currency,
                               description=what or "Bill", category=category,
                               payments=[(payer, amount)],
                               items=[Item(what or "Bill", amount, "EXACT",
                                           [(key, owed[key]) for key in owers if owed[key]])]))

    def _shares(self, owers: tuple, line: int) -> Dict[str, int]:
        """integer_weights of a set of owers, once per set (bills repeat their owers)."""
        shares = self._weights_of.get(owers)
        if shares is None:
            shares = integer_weights({key: self.weights.get(key, Decimal(1)) for key in owers},
                                     line)
            self._weights_of[owers] = shares
        return shares

    def _apportion(self, currency: str, amount: int, shares: Dict[str, int], total: int,
                   scaled: Dict[str, int]) -> Dict[str, int]:
        """Floors, then the leftover units to the owers whose running owed total lags their
        running exact share the most (first listed wins a tie)."""
        given = self.given.setdefault(currency, {})
        running = self.owed_exact.setdefault(currency, {})
        owed = {key: amount * share // total for key, share in shares.items()}
        leftover = amount - sum(owed.values())
        if leftover:
            lag = [(-(running.get(key, 0) + scaled[key] - (given.get(key, 0) + owed[key])
                      * SCALE), position, key) for position, key in enumerate(shares)]
            for _, _, key in sorted(lag)[:leftover]:
                owed[key] += 1
        for key in shares:
            running[key] = running.get(key, 0) + scaled[key]
            given[key] = given.get(key, 0) + owed[key]
        return owed

    def finish(self) -> None:
        """Record the source's balances (exact, rounded half-even to a minor unit) as the
        file's totals (a currency of "" is the group's main one, settled later)."""
        for currency, nets in self.exact.items():
            self.parsed.totals[currency] = (None, {key: _rounded(value)
                                                   for key, value in nets.items()})


def _rounded(value: int) -> int:
    """value / SCALE rounded half-even."""
    whole, rest = divmod(value, SCALE)
    if rest * 2 > SCALE or (rest * 2 == SCALE and whole % 2):
        whole += 1
    return whole
