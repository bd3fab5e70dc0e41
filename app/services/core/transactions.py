"""One TransactWrite whose failed conditions come back as the domain errors we attached.

PynamoDB sends items as condition checks, then deletes, then puts, then updates, whatever
order they were added in; cancellation reasons come back in that sent order. This wrapper
keeps each item's error beside it in the same four groups, so a reason index always maps to
the right error and no caller ever parses a message."""
from __future__ import annotations

import logging
import random
import time
from typing import Any, List, Optional, Sequence

from pynamodb.exceptions import TransactWriteError
from pynamodb.transactions import TransactWrite

import models
from app.errors import Conflict, DomainError, Invalid, TooLarge

MAX_ITEMS = 100
# Losing to another transaction is retried with full-jitter exponential backoff, bounded in
# attempts and in total sleep, so two writers that collide do not collide again in lockstep.
MAX_ATTEMPTS = 5
BACKOFF_BASE = 0.05  # seconds; retry n sleeps uniform(0, min(cap, base * 2**n)), n = 0, 1, ...
BACKOFF_CAP = 0.4
MAX_TOTAL_SLEEP = 0.5  # clamps the last sleeps (worst case uncapped: 0.05+0.1+0.2+0.4)
sleep = time.sleep  # injectable, so tests check the schedule without waiting
jitter = random.random

log = logging.getLogger("tailspend.transactions")


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
        slept = 0.0
        for attempt in range(MAX_ATTEMPTS):
            try:
                self._run()
                return
            except TransactWriteError as error:
                reasons = list(error.cancellation_reasons or [])
                failed = self._failed_condition(reasons)
                if failed is not None:
                    raise failed from error
                _raise_if_unstorable(error, reasons)
                if not any(r is not None and r.code == "TransactionConflict" for r in reasons):
                    raise
                if attempt + 1 == MAX_ATTEMPTS or slept >= MAX_TOTAL_SLEEP:
                    raise Conflict("The data changed while we were writing; try again.",
                                   code="CONCURRENT_UPDATE") from error
                delay = min(jitter() * min(BACKOFF_CAP, BACKOFF_BASE * 2 ** attempt),
                            MAX_TOTAL_SLEEP - slept)
                sleep(delay)  # the conditions are re-checked on the next attempt
                slept += delay

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


def _raise_if_unstorable(error: TransactWriteError, reasons: list) -> None:
    """DynamoDB refused the data itself (an item past 400 KB, a key past its size limit):
    the request's data is at fault, so answer 413/400 rather than 500. AWS reports this as a
    ValidationError cancellation reason; some endpoints (moto) as a ValidationException."""
    messages = [r.message or "" for r in reasons if r is not None and r.code == "ValidationError"]
    if error.cause_response_code == "ValidationException":
        messages.append(error.cause_response_message or "")
    if not messages:
        return
    log.warning("transaction_refused_data", extra={"reasons": messages})
    if any("size" in m.lower() for m in messages):
        raise TooLarge("The data is too large to store.") from error
    raise Invalid("The request holds a value that cannot be stored.") from error
