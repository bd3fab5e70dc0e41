"""Deterministic interleavings: run another writer's step at an exact point of a request.

The hook is botocore's event system (tests/support/aws_calls.py: below PynamoDB and
everything of ours), so the code under test runs unchanged: it reads and authorizes as usual, then, just before its write leaves for
DynamoDB, the competing change commits, exactly the window a real race would hit."""
from __future__ import annotations

import contextlib
import threading
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

    def due(operation_name) -> bool:
        if operation_name != operation or state["fired"]:
            return False
        state["seen"] += 1
        if state["seen"] != nth:
            return False
        state["fired"] = True  # first: action may itself make this call
        return True

    pending = []  # the due call, between its start and its reply (just_after)

    def on_start(operation_name, _params):
        if pending and pending[0] == threading.get_ident():
            pending.clear()  # the due call got no reply (a transport error): no step after it
        if due(operation_name):
            if before:
                action()
            else:
                pending.append(threading.get_ident())

    def on_reply(_operation_name, _parsed, ok):
        if pending and pending[0] == threading.get_ident():
            pending.clear()
            if ok:  # as before: a call that raised runs no step after it
                action()

    with aws_calls.watched(before=on_start, after=on_reply):
        yield state
    assert state["fired"], f"no {operation} call number {nth} happened"
