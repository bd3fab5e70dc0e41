"""One TransactWrite whose failed conditions come back as the domain errors we attached.

PynamoDB sends items as condition checks, then deletes, then puts, then updates, whatever
order they were added in; cancellation reasons come back in that sent order. This wrapper
keeps each item's error beside it in the same four groups, so a reason index always maps to
the right error and no caller ever parses a message."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from pynamodb.exceptions import TransactWriteError
from pynamodb.transactions import TransactWrite

import models
from app.errors import Conflict, DomainError

MAX_ITEMS = 100
_RETRIES_ON_CONFLICT = 2


class Transaction:
    """Collects writes; :meth:`commit` runs them atomically or raises the attached error."""

    def __init__(self) -> None:
        self._ops: dict = {"check": [], "delete": [], "put": [], "update": []}

    def check(self, model_cls, hash_key, range_key=None, *, condition, on_fail: DomainError) -> "Transaction":
        self._ops["check"].append((("condition_check", (model_cls, hash_key, range_key),
                                    {"condition": condition}), on_fail))
        return self

    def put(self, model, *, condition=None, on_fail: Optional[DomainError] = None) -> "Transaction":
        self._ops["put"].append((("save", (model,), {"condition": condition}), on_fail))
        return self

    def update(self, model, actions: Sequence[Any], *, condition=None,
               on_fail: Optional[DomainError] = None) -> "Transaction":
        self._ops["update"].append((("update", (model, list(actions)),
                                     {"condition": condition, "add_version_condition": False}),
                                    on_fail))
        return self

    def delete(self, model, *, condition=None, on_fail: Optional[DomainError] = None) -> "Transaction":
        self._ops["delete"].append((("delete", (model,),
                                     {"condition": condition, "add_version_condition": False}),
                                    on_fail))
        return self

    def __len__(self) -> int:
        return sum(len(ops) for ops in self._ops.values())

    def _sent_order(self) -> List[tuple]:
        return self._ops["check"] + self._ops["delete"] + self._ops["put"] + self._ops["update"]

    def commit(self) -> None:
        """Write everything or nothing; a failed condition raises the error attached to it."""
        if not len(self):
            return
        if len(self) > MAX_ITEMS:
            raise ValueError(f"a transaction holds at most {MAX_ITEMS} items, got {len(self)}")
        for attempt in range(_RETRIES_ON_CONFLICT + 1):
            try:
                self._run()
                return
            except TransactWriteError as error:
                reasons = list(error.cancellation_reasons or [])
                failed = self._failed_condition(reasons)
                if failed is not None:
                    raise failed from error
                if attempt < _RETRIES_ON_CONFLICT and any(
                        r is not None and r.code == "TransactionConflict" for r in reasons):
                    continue  # another transaction held an item; the conditions are re-checked
                if any(r is not None and r.code == "TransactionConflict" for r in reasons):
                    raise Conflict("The data changed while we were writing; try again.",
                                   code="CONCURRENT_UPDATE") from error
                raise

    def _failed_condition(self, reasons: list) -> Optional[DomainError]:
        for (_, on_fail), reason in zip(self._sent_order(), reasons):
            if reason is not None and reason.code == "ConditionalCheckFailed":
                return on_fail or Conflict("The data changed while we were writing; try again.",
                                           code="CONCURRENT_UPDATE")
        return None

    def _run(self) -> None:
        with TransactWrite(connection=models.connection()) as writer:
            for (method, args, kwargs), _ in self._sent_order():
                getattr(writer, method)(*args, **kwargs)
