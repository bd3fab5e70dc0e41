"""How much of an account deletion one run may do: wall time and/or units of work.

A unit is one bounded piece of a step (a group left, a page of rows swept, a pointer page
followed), each a handful of DynamoDB calls. A run spends a unit before each piece and stops
with :class:`OutOfBudget` once either bound is reached; every step is idempotent and finds
its work again from what is left, so the next run (the queue worker, or the resume sweep)
simply starts over from the first unfinished step."""
from __future__ import annotations

import time
from typing import Callable, Optional

# DELETE /users/me works at most this long before answering 202 (the API function's
# timeout is 15 s; the worker gets the rest).
REQUEST_SECONDS = 5.0
# One worker run (the function's timeout is 300 s; leave room for the last unit and the
# continuation message).
WORKER_SECONDS = 240.0
# Pages a group sweep may take per unit of budget.
SWEEP_PAGES_PER_UNIT = 1


class OutOfBudget(Exception):
    """The run's budget is spent; the deletion is resumable from where it stopped (``at``:
    a finer resume point than the step, when the step knows one)."""

    def __init__(self, at: Optional[str] = None) -> None:
        super().__init__(at)
        self.at = at


class Budget:
    def __init__(self, seconds: Optional[float] = None, units: Optional[int] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._clock, self._units, self.used = clock, units, 0
        self._deadline = None if seconds is None else clock() + seconds

    @property
    def exhausted(self) -> bool:
        if self._units is not None and self.used >= self._units:
            return True
        return self._deadline is not None and self._clock() >= self._deadline

    def spend(self, units: int = 1) -> None:
        """Claim ``units`` before doing that much work, or raise :class:`OutOfBudget`."""
        if self.exhausted:
            raise OutOfBudget()
        self.used += units

    def pages(self, cap: int) -> int:
        """How many sweep pages the next piece may take (at least one)."""
        if self._units is None:
            return cap
        return max(1, min(cap, (self._units - self.used) * SWEEP_PAGES_PER_UNIT))


def unlimited() -> Budget:
    return Budget()
