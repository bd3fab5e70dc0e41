"""Spliit's expenses entered in another currency -> converted rows at the rate Spliit recorded.

Spliit (src/app/groups/[groupId]/expenses/expense-form.tsx) stores such an expense with
``amount`` in minor units of the group currency — what its balances count — plus
``originalAmount`` (minor units of ``originalCurrency``, what was really spent) and
``conversionRate`` (1 original unit = rate group units; Prisma's Decimal, exported as a
string). The row is imported in ``originalCurrency`` with ``groupAmount`` = Spliit's
``amount`` and ``exchangeRate`` = Spliit's rate (app.ledger.foreign_currency), so
the group's balances stay Spliit's to the cent.

Our ledger apportions a converted expense's group amount over its splits in proportion to
their original amounts (app.money.fx, the split rounding rule). Each member's original
share is chosen so that this apportionment gives back exactly Spliit's group-currency share
(:func:`original_splits`); when no whole-unit split can (an original amount too coarse for
the group amount, e.g. 57,000 KRW for 36.54 EUR over many members), the row is imported in
the group currency as Spliit counts it, with a warning."""
from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Tuple

from app.money import fx
from app.money.currencies import format_minor
from app.money.splits import MAX_AMOUNT
from app.imports.amounts import currency_code, decimal_of, to_minor
from app.imports.model import SETTLEMENT, ImportFileError, Item, Parsed, RecordedRate, Row


class Original(NamedTuple):
    currency: str
    amount: int
    exchange_rate: Optional[str]


def original_of(parsed: Parsed, line: int, expense: dict,
                group_currency: Optional[str]) -> Optional[Original]:
    """The JSON expense's original currency, amount and rate, or None when it has none (or
    none this import can use: no group currency, the group's own currency, an unknown code,
    a non-positive amount), the unusable ones with a warning."""
    return _original(parsed, line, expense.get("originalCurrency"),
                     expense.get("originalAmount"), expense.get("conversionRate"),
                     group_currency)


def original_of_cells(parsed: Parsed, line: int, cells: dict,
                      group_currency: str) -> Optional[Original]:
    """The same from a CSV row's ``Original cost`` (a decimal of the original currency,
    formatAmountAsDecimal), ``Original currency`` and ``Conversion rate`` cells."""
    code, cost = cells.get("Original currency", "").strip(), cells.get("Original cost", "")
    if not code or not cost.strip():
        return None
    amount = -1  # not an amount (warned) unless the cell is one, exactly
    try:
        minor, exact = to_minor(cost, currency_code(code, line), line, "Original cost")
        amount = minor if exact else amount
    except ImportFileError:
        pass  # an unknown code is warned about below; a bad cell as not an amount
    return _original(parsed, line, code, amount,
                     cells.get("Conversion rate", "").strip() or None, group_currency)


def _original(parsed: Parsed, line: int, code: Any, amount: Any, rate: Any,
              group_currency: Optional[str]) -> Optional[Original]:
    if not code or amount is None or group_currency is None:
        return None
    try:
        code = currency_code(code, line)
    except ImportFileError:
        parsed.warn(line, f"The original currency {str(code)[:12]!r} is not an ISO 4217 "
                          f"code: imported in {group_currency} as Spliit counts it.")
        return None
    if code == group_currency:
        return None
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_AMOUNT:
        parsed.warn(line, f"The original amount is not one from 1 to {MAX_AMOUNT} minor "
                          f"units: imported in {group_currency} as Spliit counts it.")
        return None
    return Original(code, amount, _rate(rate, line))


def _rate(value: Any, line: int) -> Optional[str]:
    """Spliit's conversionRate as our rate text (at most 12 significant digits), or None
    (the rate is then derived from the two amounts)."""
    if value is None or isinstance(value, bool):
        return None
    try:
        rate = decimal_of(value, line, "conversionRate")
    except ImportFileError:
        return None
    if not rate.is_finite() or rate <= 0:
        return None
    return fx.rate_text(fx.significant(rate))


def convert(parsed: Parsed, row: Row, original: Optional[Original],
            group_currency: Optional[str]) -> None:
    """A row in the group currency -> the same in the currency it was spent in, at
    Spliit's rate and with Spliit's amount as its group amount: a repayment as it is, an
    expense when :func:`original_splits` finds its members' original shares (else it is
    left in the group currency, with a warning). No ``original``: nothing to do."""
    if original is None:
        return
    recorded = RecordedRate(group_currency, row.total, original.exchange_rate)
    if row.kind == SETTLEMENT:
        row.currency, row.amount, row.recorded_rate = original.currency, original.amount, \
            recorded
        return
    (payer, amount), = row.payments
    (item,) = row.items
    foreign = original_splits(original.amount, amount, item.splits)
    if foreign is None:
        parsed.warn(row.line, f"{format_minor(original.amount, original.currency)} "
                              f"{original.currency} cannot be split in whole units so that "
                              f"every share is Spliit's: imported in {group_currency} as "
                              f"Spliit counts it.")
        return
    row.currency, row.payments = original.currency, [(payer, original.amount)]
    row.items = [Item(item.name, original.amount, "EXACT", foreign)]
    row.recorded_rate = recorded


def original_splits(original: int, group_amount: int,
                    shares: List[Tuple[str, int]]) -> Optional[List[Tuple[str, int]]]:
    """Each member's share of ``original`` (whole units, summing to it, in the order to
    store them) such that apportioning ``group_amount`` over them by the split rounding rule
    (app.money.fx.apportion_amounts) gives exactly ``shares``; None when none exists.

    With floor-then-one-each-in-order rounding, share i comes out exact when its quota
    ``group_amount * f_i / original`` lies within one unit of it, below it for the splits
    stored first and above it for the ones stored last. So each f_i is picked in the open
    interval where ``|group_amount * f_i - original * s_i| < original``, the picks summing
    to ``original``; the ones under their share are stored before the ones over it."""
    wanted = [(key, share) for key, share in shares if share > 0]
    if not wanted or sum(s for _, s in wanted) != group_amount:
        return None
    low = [(original * s - original) // group_amount + 1 for _, s in wanted]
    high = [(original * s + original - 1) // group_amount for _, s in wanted]
    need = original - sum(low)
    if any(lo > hi or lo < 1 for lo, hi in zip(low, high, strict=True)) or need < 0:
        return None
    picked = list(low)
    for index, (lo, hi) in enumerate(zip(low, high, strict=True)):
        step = min(hi - lo, need)
        picked[index] += step
        need -= step
    if need:
        return None
    # Under their share first, exact next, over last (see above).
    order = sorted(range(len(wanted)), key=lambda i: (
        (group_amount * picked[i] > original * wanted[i][1]) -
        (group_amount * picked[i] < original * wanted[i][1])))
    splits = [(wanted[i][0], picked[i]) for i in order]
    got = fx.apportion_amounts(group_amount, [value for _, value in splits])
    if got != [wanted[i][1] for i in order]:
        return None  # never expected: the rule above is what apportion_amounts does
    return splits
