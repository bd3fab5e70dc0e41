"""Net-only cells (Splitwise: each member's paid - owed for a row) -> payments + EXACT splits.

The contract's rule: a single positive cell is the payer of the whole Cost; several positive
cells are payers in proportion to their cells (apportioned exactly, app.money.splits); each
member owes paid - cell. When Cost cannot be right (it is less than what the positive cells
were paid back), the amount is the sum of the positive cells instead, and the row says so.
Either way every member's net for the row is reproduced exactly."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from app.money.splits import resolve_item
from app.imports.model import EXPENSE, SETTLEMENT, ImportFileError, Item, Row


def expense_from_nets(line: int, cost: int, cells: Dict[str, int], *, date: str,
                      currency: str, description: str,
                      category: Optional[str]) -> Tuple[Optional[Row], Optional[str]]:
    """(row, warning) for one row of net cells; (None, why) for a row with no money in it.

    Raises ImportFileError when the cells do not sum to 0 (no expense can reproduce them)."""
    total = sum(cells.values())
    if total:
        raise ImportFileError(line, f"The member cells sum to {total} minor units, not 0.")
    positive = [(key, value) for key, value in cells.items() if value > 0]
    if not positive:
        return None, "No member's balance changes on this row: skipped."
    owed_by_payers = sum(value for _, value in positive)
    warning = None
    amount = cost
    if cost < owed_by_payers:
        warning = (f"Cost {cost} is less than the {owed_by_payers} the payers are owed: "
                   f"imported with amount {owed_by_payers}.")
        amount = owed_by_payers
    if len(positive) == 1:
        paid = [amount]
    else:
        paid = resolve_item(amount, "SHARES", [(key, value) for key, value in positive])
    payments = [(key, share) for (key, _), share in zip(positive, paid, strict=True)]
    paid_by = dict(payments)
    splits: List[Tuple[str, int]] = []
    for key, value in cells.items():
        owed = paid_by.get(key, 0) - value
        if owed:
            splits.append((key, owed))
    row = Row(line=line, kind=EXPENSE, date=date, currency=currency, description=description,
              category=category, payments=payments,
              items=[Item(description or "Item", amount, "EXACT", splits)])
    return row, warning


def settlement_from_nets(line: int, cells: Dict[str, int], *, date: str, currency: str,
                         description: str) -> Optional[Row]:
    """A two-member row (+x, -x) as a settlement from the + member to the - member."""
    moved = [(key, value) for key, value in cells.items() if value]
    if len(moved) != 2 or moved[0][1] != -moved[1][1]:
        return None
    (payer, amount), (payee, _) = sorted(moved, key=lambda kv: -kv[1])
    return Row(line=line, kind=SETTLEMENT, date=date, currency=currency, payer=payer,
               payee=payee, amount=amount, note=description or None)
