"""A receipt draft's value types, what the confirm body loads into and the use cases take
(a leaf: the schemas import it, so it imports nothing of the app).

A draft is the expense input (app.ledger.expense_input.ExpenseInput) plus the receipt's
extras: tax (added on top of the prices), tip, service and discount lines, each
``{name, amount}`` in minor units of the draft's currency (a discount negative), which
confirm shares over the items (app.receipts.extras.fold)."""
from __future__ import annotations

from typing import Any, NamedTuple, Tuple

# The kinds of line a scan reads as an extra.
EXTRA_KINDS = ("TAX", "TIP", "SERVICE", "DISCOUNT")


class Extra(NamedTuple):
    name: str
    amount: Any  # minor units of the draft's currency; negative: a discount


class Draft(NamedTuple):
    expense: Any  # the ExpenseInput
    extras: Tuple[Extra, ...] = ()
