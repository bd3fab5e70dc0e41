"""Deterministic interleavings: run another writer's step at an exact point of a request.

The hook sits on botocore (below PynamoDB and everything of ours), so the code under test
runs unchanged: it reads and authorizes as usual, then, just before its write leaves for
DynamoDB, the competing change commits, exactly the window a real race would hit."""
from __future__ import annotations

import contextlib
from typing import Callable

from tests.support import aws_calls


@contextlib.contextmanager
def just_before(operation: str, action: Callable[[], object], nth: int = 1):
    """Run ``action`` once, right before the ``nth`` ``operation`` call (e.g. the first
    TransactWriteItems).

    ``action`` may itself call DynamoDB (even ``operation``): it fires only once, and calls
    made after it fired are not counted."""
    with _once(operation, action, before=True, nth=nth) as state:
        yield state


@contextlib.contextmanager
def just_after(operation: str, action: Callable[[], object], nth: int = 1):
    """Run ``action`` once, right after the ``nth`` ``operation`` call has returned."""
    with _once(operation, action, before=False, nth=nth) as state:
        yield state


@contextlib.contextmanager
def _once(operation: str, action: Callable[[], object], *, before: bool, nth: int = 1):
    state = {"fired": False, "seen": 0}

    def hook(make_call, operation_name):
        due = False
        if operation_name == operation and not state["fired"]:
            state["seen"] += 1
            due = state["seen"] == nth
        if due:
            state["fired"] = True  # first: action may itself make this call
        if due and before:
            action()
        reply = make_call()
        if due and not before:
            action()
        return reply

    with aws_calls.intercepted(hook):
        yield state
    assert state["fired"], f"no {operation} call number {nth} happened"
