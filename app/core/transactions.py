"""One TransactWrite whose failed conditions come back as the domain errors we attached.

PynamoDB sends items as condition checks, then deletes, then puts, then updates, whatever
order they were added in; cancellation reasons come back in that sent order. This wrapper
keeps each item's error beside it in the same four groups, so a reason index always maps to
the right error and no caller ever parses a message.

When several items fail, sent order is not the order of truth: an outbox event whose id is
derived from the new revision (a put, so sent before the versioned update) collides exactly
because a concurrent writer already produced that revision. Such items are added as
``secondary``: their error is reported only when no primary item failed, so the loser of
two concurrent edits hears VERSION_CONFLICT, never "already recorded".

A transaction may carry one :class:`Counter` (the group's change log, see
app.core.changelog): its bump is folded into whatever the transaction already does to
the counter's item (a ConditionCheck becomes an Update keeping its condition; an Update or a
Put gains the bump), because DynamoDB refuses two operations on one item. If the counter
moved since it was read, and nothing else failed, the commit renumbers and resends.
A transaction writing a row kind the counter must see (:data:`CHANGE_REQUIRED`) without a
counter is a programming error, refused before anything is sent."""
from __future__ import annotations

import logging
import random
import time
from typing import Any, Callable, List, Optional, Protocol, Sequence, Union

from pynamodb.exceptions import TransactWriteError
from pynamodb.transactions import TransactWrite

import models
from app.errors import DomainError, Invalid, TooLarge, account_deleting, concurrent_update
from app.core.live import LIVE
from models.groups import (Comment, Conversion, Expense, Group, Participant, RecurringExpense,
                           Settlement)
from models.users import Profile

MAX_ITEMS = 100
# Losing to another transaction is retried with full-jitter exponential backoff, bounded in
# attempts and in total sleep, so two writers that collide do not collide again in lockstep.
MAX_ATTEMPTS = 5
# Renumbering after another writer took the revision: one resend per writer that got in
# first (each resend knows the revision now, from the failed item's old image). With k
# writers racing, a writer loses a round with odds (k-1)/k: 100 rounds leave 8 writers a
# one-in-600,000 chance of giving up; then the caller hears CONCURRENT_UPDATE (409, retry).
MAX_RENUMBERS = 100
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

# Writing any of these row kinds is a change of the group's content: the transaction must
# carry the change log's counter (app.core.changelog.record), or say why not.
CHANGE_REQUIRED = (Group, Participant, Expense, Comment, Settlement, RecurringExpense,
                   Conversion)


class Counter(Protocol):
    """A counter item the transaction bumps once (the group's Revision on its head)."""

    model: type

    def key(self) -> tuple: ...
    def key_of(self, row) -> tuple: ...
    def actions(self) -> list: ...
    def condition(self): ...
    def stamp(self, row) -> None: ...
    def rows(self) -> list: ...
    def row_count(self) -> int: ...
    def moved(self, old: Optional[dict]) -> bool: ...
    def renumber(self, old: Optional[dict]) -> None: ...
    def committed(self) -> None: ...
    def refused(self) -> DomainError: ...


class _Moved(DomainError):
    """A counter moved under us: renumber and resend (never reaches a caller)."""

    def __init__(self, old: Optional[dict], counter: Optional["Counter"] = None) -> None:
        super().__init__("The revision moved.")
        self.old = old
        self.counter = counter


class Rebuilt(DomainError):
    """An item's condition failed only because the row it was built from moved, and it has
    been built again from the row as it is now (the failed item's old image): resend (never
    reaches a caller). The balance row's seat list is one (models.groups.balance_row)."""

    def __init__(self, rebuild: Callable[["Transaction"], None]) -> None:
        super().__init__("The row moved.")
        self.rebuild = rebuild


class Transaction:
    """Collects writes; :meth:`commit` runs them atomically or raises the attached error."""

    def __init__(self) -> None:
        self._ops: dict = {"check": [], "delete": [], "put": [], "update": []}
        self._live: set = set()
        # One counter per counted row (a group's change log: one per group the transaction
        # writes; a settlement across groups writes several).
        self.counters: List[Counter] = []
        self._unrecorded: Optional[str] = None
        self._sent: Optional[List[tuple]] = None
        self._after_commit: List[Callable[[], None]] = []

    @property
    def counter(self) -> Optional[Counter]:
        """The first counter attached (most transactions count one group)."""
        return self.counters[0] if self.counters else None

    def count_with(self, counter: Counter) -> Counter:
        """Attach ``counter``, or return the one already attached for the same row."""
        for attached in self.counters:
            if attached.key() == counter.key():
                return attached
        self.counters.append(counter)
        self._sent = None
        return counter

    def without_change(self, reason: str) -> "Transaction":
        """This transaction writes a row kind of CHANGE_REQUIRED but changes nothing any
        read shows (``reason`` says what), so it records no change."""
        self._unrecorded = reason
        return self

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

    def recondition(self, model_cls, hash_key, range_key=None, *, condition) -> None:
        """Replace the condition of this transaction's check on one item (before a resend:
        the caller has re-read what the condition asserts)."""
        for index, ((method, args, kwargs), on_fail, secondary) in enumerate(self._ops["check"]):
            if args[0] is model_cls and tuple(args[1:3]) == (hash_key, range_key):
                self._ops["check"][index] = ((method, args, {**kwargs, "condition": condition}),
                                             on_fail, secondary)
                self._sent = None
                return
        raise ValueError("no check on that item to recondition")

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the transaction has committed (what an item's writer learns
        only then: the balance row's seats as the committed write left them)."""
        self._after_commit.append(callback)

    def rework(self, model, actions: Sequence[Any], *, condition=None) -> None:
        """Replace the actions and condition of the update this transaction was given for
        ``model`` (the same instance: a :class:`Rebuilt` item, before its resend); its
        on_fail stays."""
        for index, ((method, args, kwargs), on_fail, secondary) in enumerate(self._ops["update"]):
            row = args[0]
            if row is model:
                self._ops["update"][index] = ((method, (row, list(actions)),
                                               {**kwargs, "condition": condition}),
                                              on_fail, secondary)
                self._sent = None
                return
        raise ValueError("no update of that item to rework")

    def require_live_account(self, user_id: str, *,
                             on_fail: OnFail = None) -> "Transaction":
        """Commit only while ``user_id``'s account is live (PROFILE present, not DELETING):
        every write creating a row owned by a user adds this for that user (see
        app.core.live). Once per user; the default refusal is 401 (deleted)."""
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
        return sum(len(ops) for ops in self._ops.values()) + self._counter_items()

    def _counter_items(self) -> int:
        """Items the counters add: their rows, and each bump unless it folds into an item."""
        return sum(counter.row_count() + (self._find_counter_op(counter, self._ops) is None)
                   for counter in self.counters)

    @staticmethod
    def _find_counter_op(counter: Counter, ops: dict) -> Optional[tuple]:
        """(group, index) of the item already operating on the counter's row, if any."""
        model, key = counter.model, counter.key()
        for group in ("check", "put", "update", "delete"):
            for index, ((_, args, _), _, _) in enumerate(ops[group]):
                if group == "check":
                    same = issubclass(args[0], model) and tuple(args[1:3]) == key
                else:
                    same = isinstance(args[0], model) and counter.key_of(args[0]) == key
                if same:
                    return group, index
        return None

    def _sent_order(self) -> List[tuple]:
        """Every item of this attempt in the order PynamoDB sends them (with the counter)."""
        if self._sent is None:
            self._sent = self._render()
        return self._sent

    def _render(self) -> List[tuple]:
        ops = {group: list(items) for group, items in self._ops.items()}
        for counter in self.counters:
            found = self._find_counter_op(counter, ops)
            moved = self._moved_or(counter, None)
            if found is None:
                ops["update"].append((("update", (counter.model(*counter.key()),
                                                  counter.actions()),
                                       {"condition": counter.condition(),
                                        "add_version_condition": False,
                                        "return_values": "ALL_OLD"}), moved, False))
            else:
                group, index = found
                (method, args, kwargs), on_fail, secondary = ops[group][index]
                if group == "put":
                    counter.stamp(args[0])  # a new head carries its first revision itself
                elif group == "delete":
                    raise ValueError("a transaction deleting the counter's row cannot count")
                else:
                    condition = kwargs.get("condition")
                    condition = counter.condition() if condition is None else \
                        condition & counter.condition()
                    actions = counter.actions() if group == "check" else \
                        list(args[1]) + counter.actions()
                    row = counter.model(*counter.key()) if group == "check" else args[0]
                    del ops[group][index]
                    ops["update"].append((("update", (row, actions),
                                           {"condition": condition,
                                            "add_version_condition": False,
                                            "return_values": "ALL_OLD"}),
                                          self._moved_or(counter, on_fail), secondary))
            for row in counter.rows():
                ops["put"].append((("save", (row,), {"condition": type(row).SK.does_not_exist()}),
                                   None, True))
        return ops["check"] + ops["delete"] + ops["put"] + ops["update"]

    @staticmethod
    def _moved_or(counter: Counter, on_fail: OnFail) -> Callable[[Optional[dict]], DomainError]:
        """The counter item's on_fail: renumber if the counter moved, else its own error."""

        def judged(old: Optional[dict]) -> DomainError:
            if counter.moved(old):
                return _Moved(old, counter)
            if on_fail is None:
                return counter.refused()
            return on_fail if isinstance(on_fail, DomainError) else on_fail(old)
        return judged

    def _check_recorded(self) -> None:
        if self.counters or self._unrecorded:
            return
        for group in ("put", "update", "delete"):
            for (_, args, _), _, _ in self._ops[group]:
                if isinstance(args[0], CHANGE_REQUIRED):
                    raise ValueError(f"{type(args[0]).__name__} written without its change row "
                                     "(app.core.changelog.record) or a without_change "
                                     "reason")

    def commit(self) -> None:
        """Write everything or nothing; a failed condition raises the error attached to it."""
        if not len(self):
            return
        self._check_recorded()
        if len(self) > MAX_ITEMS:
            raise ValueError(f"a transaction holds at most {MAX_ITEMS} items, got {len(self)}")
        slept, attempt, renumbered = 0.0, 0, 0
        while True:
            try:
                self._run()
                for counter in self.counters:
                    counter.committed()
                for callback in self._after_commit:
                    callback()
                return
            except TransactWriteError as error:
                reasons = list(error.cancellation_reasons or [])
                failed = self._failed_condition(reasons)
                if isinstance(failed, (_Moved, Rebuilt)):
                    renumbered += 1
                    if renumbered > MAX_RENUMBERS:
                        raise concurrent_update("The group is changing quickly; try again."
                                                ) from error
                    # every item that only has to be renumbered or rebuilt, in one resend
                    for fix in self._resendable(reasons):
                        if isinstance(fix, Rebuilt):
                            fix.rebuild(self)
                        else:
                            fix.counter.renumber(fix.old)
                    self._sent = None
                    continue
                if failed is not None:
                    raise failed from error
                _raise_if_unstorable(error, reasons)
                if not any(r is not None and r.code == "TransactionConflict" for r in reasons):
                    raise
                if attempt + 1 == MAX_ATTEMPTS or slept >= MAX_TOTAL_SLEEP:
                    raise concurrent_update() from error
                delay = min(jitter() * min(BACKOFF_CAP, BACKOFF_BASE * 2 ** attempt),
                            MAX_TOTAL_SLEEP - slept)
                sleep(delay)  # the conditions are re-checked on the next attempt
                slept += delay
                attempt += 1

    def _failed_condition(self, reasons: list) -> Optional[DomainError]:
        """The error of the first failed primary item, else of the first failed secondary.

        A moved counter is the answer only when nothing else failed: renumbering cannot
        help a transaction that fails anyway."""
        # Not strict: a transaction refused before its items were judged (too large, endpoint
        # unreachable) comes with no reasons at all.
        failed = [(secondary, on_fail, reason)
                  for (_, on_fail, secondary), reason in zip(self._sent_order(), reasons, strict=False)
                  if reason is not None and reason.code == "ConditionalCheckFailed"]
        if not failed:
            return None
        errors = [(secondary, self._error_of(on_fail, reason)) for secondary, on_fail, reason
                  in failed]
        # stable; a moved counter or a rebuilt item only when nothing else failed
        errors.sort(key=lambda entry: (entry[0], isinstance(entry[1], (_Moved, Rebuilt))))
        return errors[0][1]

    def _resendable(self, reasons: list) -> List[DomainError]:
        """The failed items of this attempt that a resend fixes (moved counters, rebuilt
        items), judged on their old images before any of them changes the transaction."""
        errors = [self._error_of(on_fail, reason)
                  for (_, on_fail, _), reason in zip(self._sent_order(), reasons, strict=False)
                  if reason is not None and reason.code == "ConditionalCheckFailed"]
        return [error for error in errors if isinstance(error, (_Moved, Rebuilt))]

    @staticmethod
    def _error_of(on_fail: OnFail, reason) -> DomainError:
        if on_fail is None:
            return concurrent_update()
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
