"""Deterministic interleavings: run another writer's step at an exact point of a request.

The hook sits on botocore (below PynamoDB and everything of ours), so the code under test
runs unchanged: it reads and authorizes as usual, then, just before its write leaves for
DynamoDB, the competing change commits, exactly the window a real race would hit."""
from __future__ import annotations

import contextlib
from typing import Callable

from tests.support import aws_calls


@contextlib.contextmanager
def just_before(operation: str, action: Callable[[], object]):
    """Run ``action`` once, right before the first ``operation`` call (e.g. TransactWriteItems).

    ``action`` may itself call DynamoDB (even ``operation``): it fires only once."""
    with _once(operation, action, before=True) as state:
        yield state


@contextlib.contextmanager
def just_after(operation: str, action: Callable[[], object]):
    """Run ``action`` once, right after the first ``operation`` call has returned."""
    with _once(operation, action, before=False) as state:
        yield state


@contextlib.contextmanager
def _once(operation: str, action: Callable[[], object], *, before: bool):
    state = {"fired": False}

    def hook(make_call, operation_name):
        due = operation_name == operation and not state["fired"]
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
    assert state["fired"], f"no {operation} call happened"
