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

import logging
import random
import time
from typing import Any, Callable, List, Optional, Sequence, Union

from pynamodb.exceptions import TransactWriteError
from pynamodb.transactions import TransactWrite

import models
from app.errors import Conflict, DomainError, Invalid, TooLarge, account_deleting
from app.services.core.live import LIVE
from models.users import Profile

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

# A fixed error, or a function of the item as it was when the condition failed (DynamoDB
# returns it with ReturnValuesOnConditionCheckFailure=ALL_OLD; None if absent, and always
# None for a ConditionCheck or a delete, which PynamoDB's TransactWrite cannot ask it for).
OnFail = Union[DomainError, Callable[[Optional[dict]], DomainError], None]


class Transaction:
    """Collects writes; :meth:`commit` runs them atomically or raises the attached error."""

    def __init__(self) -> None:
        self._ops: dict = {"check": [], "delete": [], "put": [], "update": []}
        self._live: set = set()

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

    def require_live_account(self, user_id: str, *,
                             on_fail: OnFail = None) -> "Transaction":
        """Commit only while ``user_id``'s account is live (PROFILE present, not DELETING):
        every write creating a row owned by a user adds this for that user (see
        app.services.core.live). Once per user; the default refusal is 401 (deleted)."""
        if user_id not in self._live:
            self._live.add(user_id)
            self.check(Profile, *Profile.key(user_id), condition=LIVE,
                       on_fail=on_fail or account_deleting())
        return self

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
        """The error of the first failed primary item, else of the first failed secondary."""
        # Not strict: a transaction refused before its items were judged (too large, endpoint
        # unreachable) comes with no reasons at all.
        failed = [(secondary, on_fail, reason)
                  for (_, on_fail, secondary), reason in zip(self._sent_order(), reasons, strict=False)
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
