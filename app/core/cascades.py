"""What an area above removes when an area below deletes: hooks the area above registers.

A lower area must not import a higher one (tests/platform/test_architecture.py), yet some
deletes reach upward: an expense's attached receipt goes with the expense (its row in the
delete's own TransactWrite, its objects after the commit), a deleted group's receipt objects
go before its rows are swept, and a removed guest's pending invitation goes with the slot.
The ledger and the groups area call these hooks; the receipts and people areas register
into them when their module loads. Each entry point that can delete loads those modules:
app.factory and app.maintenance by name, account deletion because it calls receipts' cleanup
itself. tests/platform/test_architecture.py checks, in a fresh interpreter per entry point,
that each has them."""
from __future__ import annotations

from typing import Callable, Dict, List


class Hook:
    """One cascade: every registered function, called in registration order."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._calls: Dict[str, Callable] = {}

    def register(self, call: Callable) -> Callable:
        """Add ``call`` (a decorator; registering the same function again replaces it)."""
        self._calls[f"{call.__module__}.{call.__qualname__}"] = call
        return call

    def registered(self) -> List[str]:
        return list(self._calls)

    def __call__(self, *args) -> None:
        for call in list(self._calls.values()):
            call(*args)


# (tx, expense): inside the expense delete's TransactWrite (app.ledger.expense_delete counts
# one item for it).
expense_deleting = Hook("expense_deleting")
# (expense): after that transaction committed.
expense_deleted = Hook("expense_deleted")
# (group_id): before a DELETING group's rows are swept (a rerun still finds the rows).
group_sweeping = Hook("group_sweeping")
# (group_id, invitee_user_id, participant_id): after a reserved guest's removal committed
# (removed, or merged away by a transfer).
guest_removed = Hook("guest_removed")

HOOKS = (expense_deleting, expense_deleted, group_sweeping, guest_removed)
