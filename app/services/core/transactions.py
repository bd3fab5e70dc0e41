"""One TransactWrite whose failed conditions come back as the domain errors we attached.

PynamoDB sends items as condition checks, then deletes, then puts, then updates, whatever
order they were added in; cancellation reasons come back in that sent order. This wrapper
keeps each item's error beside it in the same four groups, so a reason index always maps to
the right error and no caller ever parses a message.

When several items fail, sent order is not the order of truth: an outbox event whose id is
derived from the new revision (a put, so sent before the versioned update) collides exactly
because a concurrent writer already produced that revision. Such items are added as
``secondary``: their error is reported only when no primary item failed, so the loser of
two concurrent edits hears VERSION_CONFLICT, never "already recorded"."""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Union

from pynamodb.exceptions import TransactWriteError
from pynamodb.transactions import TransactWrite

import models
from app.errors import Conflict, DomainError

MAX_ITEMS = 100
_RETRIES_ON_CONFLICT = 2

# A fixed error, or a function of the item as it was when the condition failed (DynamoDB
# returns it with ReturnValuesOnConditionCheckFailure=ALL_OLD; None if absent, and always
# None for a ConditionCheck or a delete, which PynamoDB's TransactWrite cannot ask it for).
OnFail = Union[DomainError, Callable[[Optional[dict]], DomainError], None]


class Transaction:
    """Collects writes; :meth:`commit` runs them atomically or raises the attached error."""

    def __init__(self) -> None:
        self._ops: dict = {"check": [], "delete": [], "put": [], "update": []}

    def _add(self, group: str, method: str, args: tuple, kwargs: dict, on_fail: OnFail,
             secondary: bool = False) -> "Transaction":
        wants_old = callable(on_fail) and not isinstance(on_fail, DomainError)
        if wants_old and group in ("put", "update"):
            kwargs = {**kwargs, "return_values": "ALL_OLD"}
        self._ops[group].append(((method, args, kwargs), on_fail, secondary))
        return self

    def check(self, model_cls, hash_key, range_key=None, *, condition,
              on_fail: OnFail) -> "Transaction":
        return self._add("check", "condition_check", (model_cls, hash_key, range_key),
                         {"condition": condition}, on_fail)

    def put(self, model, *, condition=None, on_fail: OnFail = None,
            secondary: bool = False) -> "Transaction":
        """``secondary``: a failure here is only reported if no other item failed."""
        return self._add("put", "save", (model,), {"condition": condition}, on_fail, secondary)

    def update(self, model, actions: Sequence[Any], *, condition=None,
               on_fail: OnFail = None) -> "Transaction":
        return self._add("update", "update", (model, list(actions)),
                         {"condition": condition, "add_version_condition": False}, on_fail)

    def delete(self, model, *, condition=None, on_fail: OnFail = None) -> "Transaction":
        return self._add("delete", "delete", (model,),
                         {"condition": condition, "add_version_condition": False}, on_fail)

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
        """The error of the first failed primary item, else of the first failed secondary."""
        failed = [(secondary, on_fail, reason)
                  for (_, on_fail, secondary), reason in zip(self._sent_order(), reasons)
                  if reason is not None and reason.code == "ConditionalCheckFailed"]
        if not failed:
            return None
        _, on_fail, reason = min(failed, key=lambda entry: entry[0])  # stable: first primary
        if on_fail is None:
            return Conflict("The data changed while we were writing; try again.",
                            code="CONCURRENT_UPDATE")
        if isinstance(on_fail, DomainError):
            return on_fail
        return on_fail(reason.raw_item)

    def _run(self) -> None:
        with TransactWrite(connection=models.connection()) as writer:
            for (method, args, kwargs), _, _ in self._sent_order():
                getattr(writer, method)(*args, **kwargs)
